import { parse } from 'acorn';

export type SyntaxCheck = { ok: true } | { ok: false; message: string; line: number; column: number };

/**
 * Checks that builder code parses as ECMAScript 2020. The code is a function body in the sandbox, so a
 * top-level `return` and `await` are allowed.
 * @example checkJavascriptSyntax('return 1 +') // { ok: false, message: 'Unexpected token', line: 1, column: 11 }
 */
export function checkJavascriptSyntax(code: string): SyntaxCheck {
  try {
    parse(code, {
      ecmaVersion: 2020,
      sourceType: 'script',
      allowReturnOutsideFunction: true,
      allowAwaitOutsideFunction: true,
    });
    return { ok: true };
  } catch (err) {
    const e = err as SyntaxError & { loc?: { line: number; column: number } };
    // acorn appends "(line:column)" with a 0-based column; we report it once, 1-based.
    const message = e.message.replace(/\s*\(\d+:\d+\)$/, '');
    return { ok: false, message, line: e.loc?.line ?? 1, column: (e.loc?.column ?? 0) + 1 };
  }
}

export function formatSyntaxError(check: Extract<SyntaxCheck, { ok: false }>): string {
  return `${check.message} (line ${check.line}, column ${check.column})`;
}

const RESERVED_WORDS = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for ' +
    'function if import in instanceof new null return super switch this throw true try typeof var void while with ' +
    'yield let static implements interface package private protected public await'
  ).split(' '),
);
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** An ASCII JavaScript identifier that is not a reserved word: `checkBalance`, `_x`, `$res`. */
export function isJavascriptIdentifier(name: string): boolean {
  return IDENTIFIER.test(name) && !RESERVED_WORDS.has(name);
}
