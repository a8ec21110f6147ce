import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { ScriptCodeEditor } from '../script-code-editor';
import { javascriptDocsQuery } from '../use-designer';
import type { ActionCodeFormProps } from './action-code-form.types';

/** Wait before an empty editor asks for the default SDK text (spec section 4). */
export const DEFAULT_CODE_DELAY_MS = 1000;

/**
 * javascript: a function body run in the sandbox; what it returns is `actions.<name>`, and a returned
 * `{ goto }`, `{ end }` or `{ vars }` steers the session. An empty editor gets the default SDK text after 1 s.
 */
export function JavascriptForm({ code, onChange, errors }: ActionCodeFormProps<'javascript'>) {
  const queryClient = useQueryClient();
  const latest = useRef({ code, onChange });
  latest.current = { code, onChange };
  const isEmptyAtMount = useRef(code.trim() === '');

  useEffect(() => {
    if (!isEmptyAtMount.current) return;
    let isCancelled = false;
    const timer = setTimeout(() => {
      void queryClient.fetchQuery(javascriptDocsQuery).then((text) => {
        if (!isCancelled && text && latest.current.code.trim() === '') latest.current.onChange(text);
      }).catch(() => undefined);
    }, DEFAULT_CODE_DELAY_MS);
    return () => {
      isCancelled = true;
      clearTimeout(timer);
    };
  }, [queryClient]);

  return (
    <ScriptCodeEditor
      label="Javascript code"
      description="A function body: return a value for actions.<name>, or { goto: 'menuIdentifier' }, { end: 'text' }, { vars: {...} }"
      value={code}
      onChange={onChange}
      error={errors['']}
      testId="javascript-action-editor"
    />
  );
}
