import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { isOk } from '../../lib/api';
import { getDefaultJavascriptCode } from '../../../shared/api/custom-actions.calls';
import { call, queryKey } from '../../lib/call';

/** Wait before an empty editor asks for the default code (docs/product.md: 1 s after the editor loads). */
export const DEFAULT_CODE_DELAY_MS = 1000;

/** The default code, read once per visit; null when the server has none (the editor then stays empty). */
async function fetchDefaultCode(): Promise<string | null> {
  const reply = await call(getDefaultJavascriptCode);
  return isOk(reply) && typeof reply.data === 'string' && reply.data ? reply.data : null;
}

/**
 * The default javascript code for an editor that opened empty: a second after it loads, the code (the SDK by
 * example) replaces the text if the editor is still empty. The javascript action and the custom function
 * editor use it. Returns whether the code is still on its way.
 */
export function useDefaultCode(code: string, onChange: (code: string) => void): boolean {
  const queryClient = useQueryClient();
  const latest = useRef({ code, onChange });
  latest.current = { code, onChange };
  const [isPending, setPending] = useState(() => code.trim() === '');
  const isEmptyAtMount = useRef(isPending);

  useEffect(() => {
    if (!isEmptyAtMount.current) return;
    let isCancelled = false;
    const timer = setTimeout(() => {
      void queryClient
        .fetchQuery({ queryKey: queryKey(getDefaultJavascriptCode), queryFn: fetchDefaultCode, staleTime: Infinity, retry: false })
        .catch(() => null)
        .then((text) => {
          if (isCancelled) return;
          setPending(false);
          if (text && latest.current.code.trim() === '') latest.current.onChange(text);
        });
    }, DEFAULT_CODE_DELAY_MS);
    return () => {
      isCancelled = true;
      clearTimeout(timer);
    };
  }, [queryClient]);

  return isPending;
}
