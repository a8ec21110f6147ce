import { useQuery } from '@tanstack/react-query';
import { findActionResults, findUserInputs } from '../../../shared/api/logs.calls';
import { queryKey } from '../../lib/call';
import { pollActionResults, pollUserInputs, type PollResult } from './emulator.api';
import { POLL_INTERVAL_MS } from './emulator-session';

/** What a debug list shows: the last answer (`undefined` before the first) and why the latest poll failed. */
export interface DebugList<T> {
  result: Exclude<PollResult<T>, { kind: 'failed' }> | undefined;
  failure: string | null;
}

async function orThrow<T>(poll: Promise<PollResult<T>>): Promise<Exclude<PollResult<T>, { kind: 'failed' }>> {
  const result = await poll;
  if (result.kind === 'failed') throw new Error(result.detail);
  return result;
}

/**
 * The debug panel's two lists, polled every 2.5 s only while a session id exists and someone
 * is signed in to read them. A poll that never gets an answer keeps the last lists on screen and reports the
 * failure beside them.
 */
export function useDebugOutput(appId: string, sessionId: string | null, canRead: boolean) {
  const options = { enabled: !!sessionId && canRead, refetchInterval: POLL_INTERVAL_MS, retry: false, staleTime: 0 } as const;
  const input = { body: { appId, sessionId: sessionId ?? '' } };
  const userInputs = useQuery({
    queryKey: queryKey(findUserInputs, input),
    queryFn: () => orThrow(pollUserInputs(appId, sessionId!)),
    ...options,
  });
  const actionResults = useQuery({
    queryKey: queryKey(findActionResults, input),
    queryFn: () => orThrow(pollActionResults(appId, sessionId!)),
    ...options,
  });
  return {
    userInputs: { result: userInputs.data, failure: userInputs.error?.message ?? null },
    actionResults: { result: actionResults.data, failure: actionResults.error?.message ?? null },
  };
}
