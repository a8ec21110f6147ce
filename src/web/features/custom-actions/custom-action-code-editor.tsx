import { completeFromList, type Completion } from '@codemirror/autocomplete';
import { javascript, javascriptLanguage } from '@codemirror/lang-javascript';
import { lintGutter } from '@codemirror/lint';
import { EditorView } from '@codemirror/view';
import { Box, Input } from '@mantine/core';
import CodeMirror from '@uiw/react-codemirror';
import { useMemo } from 'react';
import { javascriptSyntaxLinter } from '../../components/javascript-syntax-linter';

/** Spec section 9: the code editor is 400px high. */
export const CODE_EDITOR_HEIGHT = '400px';

/** What a custom function can reach in the sandbox: session, input, actions and log (see the default code). */
const SDK_COMPLETIONS: Completion[] = [
  { label: 'session', type: 'variable', info: 'The session: mobile, network, serviceCode, sessionId, inputs, vars' },
  { label: 'session.mobile', type: 'property', info: "The caller's number" },
  { label: 'session.network', type: 'property', info: "The caller's network" },
  { label: 'session.serviceCode', type: 'property', info: 'The code dialled' },
  { label: 'session.sessionId', type: 'property' },
  { label: 'session.inputs', type: 'property', info: 'What the user typed, by menu identifier: session.inputs.amount' },
  { label: 'session.vars', type: 'property', info: 'Variables set by earlier scripts ({ vars: {...} })' },
  { label: 'input', type: 'variable', info: 'What the user typed for this screen (a string)' },
  { label: 'actions', type: 'variable', info: "Earlier actions' results by name, e.g. actions.lookup.body" },
  { label: 'log', type: 'variable', info: 'log.info, log.debug, log.error: lines in the terminal and the app logs' },
  { label: 'log.info', type: 'function', apply: 'log.info()', info: 'An info line' },
  { label: 'log.debug', type: 'function', apply: 'log.debug()', info: 'A debug line (console.log too)' },
  { label: 'log.error', type: 'function', apply: 'log.error()', info: 'An error line' },
  { label: 'return { vars: {} };', type: 'text', info: 'Set session variables' },
  { label: 'return { goto: "menuIdentifier" };', type: 'text', info: 'Go to a menu' },
  { label: 'return { end: "Thank you" };', type: 'text', info: 'End the session with this text' },
];


interface CustomActionCodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  /** Shown in place of code while the default code is on its way. */
  placeholder?: string;
}

/** CodeMirror for the function body: JavaScript highlighting, SDK autocomplete, syntax marks; 400px high. */
export function CustomActionCodeEditor({ value, onChange, placeholder }: CustomActionCodeEditorProps) {
  const extensions = useMemo(
    () => [
      javascript(),
      javascriptLanguage.data.of({ autocomplete: completeFromList(SDK_COMPLETIONS) }),
      javascriptSyntaxLinter,
      lintGutter(),
      // The default code is mostly long comment lines; wrapping keeps them readable on a phone.
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ 'aria-label': 'Function code' }),
    ],
    [],
  );
  return (
    <Input.Wrapper label="Code" description="The body of async function (session, input, actions, log). Press Ctrl+Space for suggestions.">
      <Box mt={6} data-testid="custom-action-code" style={{ border: '1px solid var(--mantine-color-gray-4)', borderRadius: 'var(--mantine-radius-md)', overflow: 'hidden' }}>
        <CodeMirror value={value} height={CODE_EDITOR_HEIGHT} extensions={extensions} onChange={onChange} placeholder={placeholder} basicSetup={{ foldGutter: false }} />
      </Box>
    </Input.Wrapper>
  );
}
