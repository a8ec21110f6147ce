import { Text } from '@mantine/core';
import { toCanvas } from 'qrcode';
import { useEffect, useRef, useState } from 'react';
import { BOT_MESSAGES } from '../../../shared/api/bots.schema';
import { QR_CANVAS_OPTIONS } from './linked-number-link';

/** The canvas keeps its 400 drawn pixels and shrinks to fit a phone's dialog. */
const CANVAS_STYLE = { width: '100%', maxWidth: QR_CANVAS_OPTIONS.width, height: 'auto', aspectRatio: '1' } as const;

/**
 * Draws the QR's content with the `qrcode` package on a canvas 400 px wide with a margin of 4, the caption under
 * it. A code that cannot be drawn says 'Error generating QR code image' instead. A new content (the connector refreshes its code) is
 * drawn over the old one.
 */
export function LinkedNumberQrCanvas({ value, caption }: { value: string; caption: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [hasFailed, setFailed] = useState(false);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    let isActive = true;
    setFailed(false);
    toCanvas(canvas, value, { ...QR_CANVAS_OPTIONS })
      .then(() => {
        // The package sizes the canvas with inline pixels; the page's own style is put back.
        Object.assign(canvas.style, { width: CANVAS_STYLE.width, height: CANVAS_STYLE.height });
      })
      .catch(() => {
        if (isActive) setFailed(true);
      });
    return () => {
      isActive = false;
    };
  }, [value]);

  return (
    <>
      {hasFailed && (
        <Text c="red.8" role="alert" data-testid="qr-error">
          {BOT_MESSAGES.qrImageFailed}
        </Text>
      )}
      <canvas
        ref={canvasRef}
        width={QR_CANVAS_OPTIONS.width}
        height={QR_CANVAS_OPTIONS.width}
        role="img"
        aria-label="QR code to link the number"
        data-testid="qr-canvas"
        style={{ ...CANVAS_STYLE, display: hasFailed ? 'none' : 'block' }}
      />
      {!hasFailed && (
        <Text ta="center" fw={500}>
          {caption}
        </Text>
      )}
    </>
  );
}
