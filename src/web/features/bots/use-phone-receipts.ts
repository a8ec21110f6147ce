import { useCallback, useEffect, useRef } from 'react';
import { sendSimulatedPhoneReceipt } from '../../../shared/api/bots.calls';
import { call } from '../../lib/call';
import type { ChatEntry } from './chat-entries';

/**
 * The simulated phone's receipts for the bot's messages, as a real phone sends them: delivered once shown, read
 * while the chat is in view (now, or when the page comes back into view). `fail` is the page's testing control.
 */
export function usePhoneReceipts(linkId: string, secret: string, entries: ChatEntry[]) {
  const receipted = useRef(new Map<string, 'delivered' | 'read' | 'failed'>());
  const report = useCallback(
    (messageId: string, status: 'delivered' | 'read' | 'failed') =>
      call(sendSimulatedPhoneReceipt, { params: { linkId }, body: { secret, messageId, status } }),
    [linkId, secret],
  );
  useEffect(() => {
    function sendReceipts() {
      const isInView = document.visibilityState === 'visible';
      for (const { messageId } of entries) {
        if (!messageId) continue;
        const done = receipted.current.get(messageId);
        if (done === 'read' || done === 'failed' || (done === 'delivered' && !isInView)) continue;
        receipted.current.set(messageId, isInView ? 'read' : 'delivered');
        void (async () => {
          if (!done) await report(messageId, 'delivered');
          if (isInView) await report(messageId, 'read');
        })();
      }
    }
    sendReceipts();
    document.addEventListener('visibilitychange', sendReceipts);
    return () => document.removeEventListener('visibilitychange', sendReceipts);
  }, [entries, report]);
  const fail = useCallback(
    (messageId: string) => {
      receipted.current.set(messageId, 'failed');
      return report(messageId, 'failed');
    },
    [report],
  );
  return { fail };
}
