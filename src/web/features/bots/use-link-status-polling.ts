import { useEffect, useRef, useState } from 'react';
import type { LinkStatus } from '../../../shared/whatsapp';
import { getLinkStatus } from '../../../shared/api/bots.calls';
import { call } from '../../lib/call';
import { isLinkSettled, LINK_POLL_INTERVAL_MS, LINK_POLL_MAX_CHECKS, readLinkStatus } from './linked-number-link';

export interface LinkPoll {
  /** The last status read; null before the first answer. */
  status: LinkStatus | null;
  /** The QR's content while the status is QR. */
  qrCode: string | null;
  /** Every check was used and the link is still not CONNECTED or FAILED. */
  isGivenUp: boolean;
}

const START: LinkPoll = { status: null, qrCode: null, isGivenUp: false };

interface LinkStatusPollingOptions {
  /** Ask at once (the dialog), or first after one interval (the list, which has just read the statuses). */
  isImmediate: boolean;
  /** Called with every status read (the list reloads when a PENDING number moves on). */
  onStatus?: (status: LinkStatus) => void;
  /** Called once when the link is CONNECTED or FAILED; polling stops there. */
  onSettled?: (status: 'CONNECTED' | 'FAILED') => void;
}

/**
 * Polls GET /api/chatbot/whatsapp/link-status/{linkId} every 10 s, at most 15 times, until the link is CONNECTED
 * or FAILED. A null `linkId`, or unmounting (the dialog closing), stops it. The checks keep their 10 s beat
 * whatever the server's answer time (an interval, as the product polls; a late answer is still read unless the
 * link has settled meanwhile), so the browser tests can move the page's clock over them check by check.
 */
export function useLinkStatusPolling(linkId: string | null, { isImmediate, onStatus, onSettled }: LinkStatusPollingOptions): LinkPoll {
  const [poll, setPoll] = useState<LinkPoll>(START);
  const callbacks = useRef({ onStatus, onSettled });
  callbacks.current = { onStatus, onSettled };

  useEffect(() => {
    setPoll(START);
    if (!linkId) return;
    let isActive = true;
    let checks = 0;
    let answers = 0;
    const stop = () => {
      isActive = false;
      clearInterval(timer);
    };
    async function check(id: string) {
      checks += 1;
      if (checks >= LINK_POLL_MAX_CHECKS) clearInterval(timer);
      const read = readLinkStatus(await call(getLinkStatus, { params: { id } }));
      answers += 1;
      if (!isActive) return;
      if (read) {
        setPoll({ status: read.linkStatus, qrCode: read.qrCode, isGivenUp: false });
        callbacks.current.onStatus?.(read.linkStatus);
        if (isLinkSettled(read.linkStatus)) {
          stop();
          callbacks.current.onSettled?.(read.linkStatus);
          return;
        }
      }
      if (answers >= LINK_POLL_MAX_CHECKS) {
        stop();
        setPoll((current) => ({ ...current, isGivenUp: true }));
      }
    }
    const timer = setInterval(() => void check(linkId), LINK_POLL_INTERVAL_MS);
    if (isImmediate) void check(linkId);
    return stop;
  }, [linkId, isImmediate]);

  return poll;
}
