import { completeFromList, type Completion } from '@codemirror/autocomplete';
import { javascript, javascriptLanguage } from '@codemirror/lang-javascript';
import { lintGutter } from '@codemirror/lint';
import { EditorView } from '@codemirror/view';
import { Box, Input, Text } from '@mantine/core';
import CodeMirror from '@uiw/react-codemirror';
import { useMemo } from 'react';
import { checkJavascriptSyntax, formatSyntaxError, type FieldError } from '../../../shared/app';
import { javascriptSyntaxLinter } from '../../components/javascript-syntax-linter';

/** Script editor height (spec section 9). */
export const SCRIPT_EDITOR_HEIGHT = '300px';

/** What builder code can reach in the sandbox (src/engine README: session, actions, vars, input). */
const SDK_COMPLETIONS: Completion[] = [
  { label: 'session', type: 'variable', info: 'The session: mobile, network, sessionId, inputs, vars' },
  { label: 'session.mobile', type: 'property', info: "The caller's number" },
  { label: 'session.network', type: 'property', info: "The caller's network" },
  { label: 'session.sessionId', type: 'property' },
  { label: 'session.inputs', type: 'property', info: 'Inputs by menu identifier, e.g. session.inputs.amount' },
  { label: 'session.vars', type: 'property', info: 'Variables set by earlier scripts ({ vars: {...} })' },
  { label: 'actions', type: 'variable', info: 'Results of earlier actions by action name' },
  { label: 'input', type: 'variable', info: "The user's input (validation functions)" },
  { label: 'return { goto: "menuIdentifier" };', type: 'text', info: 'Go to a menu' },
  { label: 'return { end: "Thank you" };', type: 'text', info: 'End the session with this text' },
  { label: 'return { vars: {} };', type: 'text', info: 'Set session variables' },
];


interface ScriptCodeEditorProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: FieldError;
  description?: string;
  testId?: string;
}

/** CodeMirror with JavaScript highlighting, SDK autocomplete and live syntax marks, 300px high. */
export function ScriptCodeEditor({ label, value, onChange, error, description, testId }: ScriptCodeEditorProps) {
  const extensions = useMemo(
    () => [
      javascript(),
      javascriptLanguage.data.of({ autocomplete: completeFromList(SDK_COMPLETIONS) }),
      javascriptSyntaxLinter,
      lintGutter(),
      EditorView.contentAttributes.of({ 'aria-label': label }),
    ],
    [label],
  );
  const live = value.trim() === '' ? null : checkJavascriptSyntax(value);
  const liveMessage = live && !live.ok ? formatSyntaxError(live) : null;
  const message = error?.message ?? liveMessage;
  return (
    <Input.Wrapper label={label} description={description} error={message ?? undefined} data-testid={testId}>
      <Box
        mt={4}
        style={{
          border: `1px solid var(--mantine-color-${message ? 'red-6' : 'gray-4'})`,
          borderRadius: 'var(--mantine-radius-md)',
          overflow: 'hidden',
        }}
      >
        <CodeMirror value={value} height={SCRIPT_EDITOR_HEIGHT} extensions={extensions} onChange={onChange} basicSetup={{ foldGutter: false }} />
      </Box>
      {!message && value.trim() !== '' && (
        <Text size="xs" c="teal.8" mt={4}>
          Parses as ECMAScript 2020
        </Text>
      )}
    </Input.Wrapper>
  );
}
