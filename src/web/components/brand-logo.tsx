import { Group, Text } from '@mantine/core';
import { useId } from 'react';

interface BrandLogoProps {
  /** Height of the mark in px; the wordmark scales with it. */
  size?: number;
  withWordmark?: boolean;
  /** White wordmark, for dark or coloured backgrounds. */
  inverted?: boolean;
}

/**
 * The Dialflow mark: a keypad of nine keys with a dialled path running through it, and the wordmark. The one
 * logo of the public site, the sign-in screens and the console; src/web/public/favicon.svg is the same mark.
 */
export function BrandLogo({ size = 32, withWordmark = true, inverted = false }: BrandLogoProps) {
  const gradientId = useId();
  const keys = [9, 16, 23];
  return (
    <Group gap={size / 3.5} wrap="nowrap" aria-label="Dialflow" role="img">
      <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <defs>
          <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
            <stop offset="0%" stopColor={inverted ? '#ffffff' : '#12b886'} />
            <stop offset="100%" stopColor={inverted ? '#e6fcf5' : '#0c8599'} />
          </linearGradient>
        </defs>
        <rect width="32" height="32" rx="8" fill={`url(#${gradientId})`} />
        <polyline
          points="9,9 16,16 23,16 23,23"
          fill="none"
          stroke={inverted ? '#0c8599' : '#ffffff'}
          strokeWidth="2.6"
          strokeLinecap="round"
          strokeLinejoin="round"
          opacity="0.9"
        />
        {keys.flatMap((y) => keys.map((x) => <circle key={`${x}-${y}`} cx={x} cy={y} r="2.4" fill={inverted ? '#0c8599' : '#ffffff'} />))}
      </svg>
      {withWordmark && (
        <Text component="span" fw={800} fz={size * 0.66} lh={1} c={inverted ? 'white' : 'dark.8'} style={{ letterSpacing: '-0.02em' }}>
          Dialflow
        </Text>
      )}
    </Group>
  );
}
