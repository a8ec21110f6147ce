import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { findChatSimulatorStatuses, sendChatSimulatorReceipt } from '../../../shared/api/bots.calls';
import { failureText, isOk } from '../../lib/api';
import { call, callQuery } from '../../lib/call';
import { type ChatEntry, type EntryStatus, findOpenMessageIds } from './chat-entries';

/** How often the ticks ask again while a message is not yet read or failed. */
const POLL_MS = 1000;
/** The most ids asked at once (the call's bound): the newest. */
const MAX_IDS = 100;

export type Receipt = 'delivered' | 'read' | 'failed';

/**
 * The chat simulator's ticks: the delivery status of each of the bot's messages, asked of the server every second
 * while any may still change. The simulator also plays the customer's phone: with `isAutomatic`, a message is
 * reported delivered once shown and read while the page is in view, as a phone does; otherwise the receipts are
 * sent by hand (`report`), and `report('failed')` makes a message fail, to try how a failure shows.
 */
export function useChatStatuses(appId: string, entries: ChatEntry[], isAutomatic: boolean) {
  const [statuses, setStatuses] = useState<ReadonlyMap<string, EntryStatus>>(new Map());
  const [error, setError] = useState<string | null>(null);
  const ids = findOpenMessageIds(entries, statuses).slice(-MAX_IDS).join(',');
  const query = useQuery({
    ...callQuery(findChatSimulatorStatuses, { params: { appId }, query: { ids } }, 'The ticks could not be read.'),
    enabled: ids !== '',
    refetchInterval: POLL_MS,
    retry: false,
    staleTime: 0,
  });
  const { data, refetch } = query;

  useEffect(() => {
    if (!data) return;
    setStatuses((old) => {
      const next = new Map(old);
      for (const { id, status, failureReason } of data.statuses) next.set(id, { status, failureReason });
      return next;
    });
  }, [data]);

  const report = useCallback(
    async (messageId: string, status: Receipt) => {
      const reply = await call(sendChatSimulatorReceipt, { params: { appId }, body: { messageId, status } });
      setError(isOk(reply) ? null : failureText(reply, 'The receipt was not recorded.'));
      if (isOk(reply)) await refetch();
    },
    [appId, refetch],
  );

  // The phone's own receipts: delivered when shown, read while the page is in view (now, or when it comes back).
  const receipted = useRef(new Map<string, Receipt>());
  useEffect(() => {
    if (!isAutomatic) return;
    function sendReceipts() {
      for (const { messageId } of entries) {
        if (!messageId) continue;
        const done = receipted.current.get(messageId);
        const next: Receipt | null = document.visibilityState === 'visible' ? (done === 'read' ? null : 'read') : done ? null : 'delivered';
        if (!next) continue;
        receipted.current.set(messageId, next);
        void (async () => {
          if (!done) await report(messageId, 'delivered');
          if (next === 'read') await report(messageId, 'read');
        })();
      }
    }
    sendReceipts();
    document.addEventListener('visibilitychange', sendReceipts);
    return () => document.removeEventListener('visibilitychange', sendReceipts);
  }, [entries, isAutomatic, report]);

  const manual = useCallback(
    (messageId: string, status: Receipt) => {
      receipted.current.set(messageId, status);
      return report(messageId, status);
    },
    [report],
  );

  return { statuses, report: manual, error: error ?? query.error?.message ?? null };
}
