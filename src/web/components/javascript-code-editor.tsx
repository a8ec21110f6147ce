import { javascript } from '@codemirror/lang-javascript';
import { lintGutter } from '@codemirror/lint';
import { EditorView } from '@codemirror/view';
import { Box, Input, Text } from '@mantine/core';
import CodeMirror from '@uiw/react-codemirror';
import { useMemo } from 'react';
import { checkJavascriptSyntax, formatSyntaxError, type FieldError } from '../../shared/app';
import { javascriptSdkAutocomplete } from './javascript-sdk-completions';
import { javascriptSyntaxLinter } from './javascript-syntax-linter';

/** Script editors in the menu form (docs/product.md: 300px high); the custom function editor is taller. */
export const SCRIPT_EDITOR_HEIGHT = '300px';

interface JavascriptCodeEditorProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The editor's accessible name, when not the label. */
  ariaLabel?: string;
  description?: string;
  /** The form's error for this code (a save refused it); the live syntax check shows without it. */
  error?: FieldError;
  height?: string;
  /** Shown while the code is empty, e.g. while the default code is on its way. */
  placeholder?: string;
  /** Long lines wrap (the default code is mostly long comment lines; wrapping keeps them readable on a phone). */
  wrapLines?: boolean;
  testId?: string;
}

/**
 * Every JavaScript editor of the console (actions, validation functions, custom functions): CodeMirror with
 * highlighting, the sandbox SDK's completions (src/shared/app/javascript-sdk.ts), parse errors marked at their
 * line with the server's ECMAScript 2020 check, and the check's outcome under the editor.
 */
export function JavascriptCodeEditor({
  label,
  value,
  onChange,
  ariaLabel = label,
  description,
  error,
  height = SCRIPT_EDITOR_HEIGHT,
  placeholder,
  wrapLines = false,
  testId,
}: JavascriptCodeEditorProps) {
  const extensions = useMemo(
    () => [
      javascript(),
      javascriptSdkAutocomplete,
      javascriptSyntaxLinter,
      lintGutter(),
      ...(wrapLines ? [EditorView.lineWrapping] : []),
      EditorView.contentAttributes.of({ 'aria-label': ariaLabel }),
    ],
    [ariaLabel, wrapLines],
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
        <CodeMirror
          value={value}
          height={height}
          extensions={extensions}
          onChange={onChange}
          placeholder={placeholder}
          basicSetup={{ foldGutter: false }}
        />
      </Box>
      {!message && value.trim() !== '' && (
        <Text size="xs" c="teal" mt={4}>
          Parses as ECMAScript 2020
        </Text>
      )}
    </Input.Wrapper>
  );
}
