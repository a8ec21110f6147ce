import { JavascriptCodeEditor } from '../../../components/javascript-code-editor';
import { useDefaultCode } from '../../custom-actions/use-default-code';
import type { ActionCodeFormProps } from './action-code-form.types';

/**
 * javascript: a function body run in the sandbox; what it returns is `actions.<name>`, and a returned
 * `{ goto }`, `{ end }` or `{ vars }` steers the session. An empty editor gets the default SDK text after 1 s.
 */
export function JavascriptForm({ code, onChange, errors }: ActionCodeFormProps<'javascript'>) {
  useDefaultCode(code, onChange);
  return (
    <JavascriptCodeEditor
      label="Javascript code"
      description="A function body: return a value for actions.<name>, or { goto: 'menuIdentifier' }, { end: 'text' }, { vars: {...} }"
      value={code}
      onChange={onChange}
      error={errors['']}
      testId="javascript-action-editor"
    />
  );
}
