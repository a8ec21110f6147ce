import { linter, type Diagnostic } from '@codemirror/lint';
import { checkJavascriptSyntax, formatSyntaxError } from '../../shared/app';

/** CodeMirror: parse errors marked at their line, with the same ECMAScript 2020 check the server applies. */
export const javascriptSyntaxLinter = linter(
  (view): Diagnostic[] => {
    const code = view.state.doc.toString();
    if (code.trim() === '') return [];
    const check = checkJavascriptSyntax(code);
    if (check.ok) return [];
    const line = view.state.doc.line(Math.min(Math.max(check.line, 1), view.state.doc.lines));
    const from = Math.min(line.from + check.column - 1, line.to);
    return [{ from, to: Math.min(from + 1, view.state.doc.length), severity: 'error', message: formatSyntaxError(check) }];
  },
  { delay: 300 },
);
