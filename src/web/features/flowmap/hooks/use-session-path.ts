import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { failureText, isOk } from '../../../lib/api';
import { findSessionPath } from '../../../../shared/api/logs.calls';
import { call, queryKey } from '../../../lib/call';

/** The menus and rules of the path shown, as the map marks them. */
export interface OnPath {
  /** Each menu's step numbers (1 is the first screen). */
  steps: Map<string, number[]>;
  /** The rule edges taken (`rule:<menuId>:<index>`). */
  rules: Set<string>;
}

/** "Show path": ?session=<id> highlights the menus that session was shown and the rules it took. */
export function useSessionPath(appId: string) {
  const [searchParams, setSearchParams] = useSearchParams();
  const sessionId = searchParams.get('session');
  const query = useQuery({
    queryKey: queryKey(findSessionPath, { body: { appId, sessionId: sessionId ?? '' } }),
    queryFn: async () => {
      const reply = await call(findSessionPath, { body: { appId, sessionId: sessionId! } });
      if (!isOk(reply) || !reply.data) throw new Error(failureText(reply, 'The session path could not be read.'));
      return reply.data;
    },
    enabled: !!sessionId,
  });
  const path = sessionId ? query.data : undefined;
  const onPath: OnPath = useMemo(() => {
    const steps = new Map<string, number[]>();
    for (const [i, s] of (path?.steps ?? []).entries()) steps.set(s.menuId, [...(steps.get(s.menuId) ?? []), i + 1]);
    return { steps, rules: new Set(path?.rules.map((r) => `rule:${r.menuId}:${r.rule}`)) };
  }, [path]);
  const clear = () => setSearchParams({}, { replace: true });
  return { sessionId, isPending: query.isPending, error: query.error, path, onPath, clear };
}
