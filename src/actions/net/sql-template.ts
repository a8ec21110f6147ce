/**
 * Turns a builder's query template into SQL text with placeholders and a list of bind values. Each
 * `{{ expression }}` outside quotes becomes the dialect's placeholder ($1, ?, @p1) and its rendered value is
 * bound; the value is never written into the SQL text, so `1; drop table x; --` or `' or '1'='1` typed by a
 * USSD user stays data.
 *
 * A builder who wrote `'{{ x }}'` (quotes around one expression) means a string parameter: the quotes are
 * dropped and it is bound like the rest. An expression inside a longer string (`'%{{ x }}%'`), an identifier
 * or a `{% tag %}` cannot be a parameter and is refused with a message saying how to write it.
 *
 * @example bindQueryTemplate('select * from users where msisdn = {{ session.mobile }}', 'postgres', render)
 *   // { text: 'select * from users where msisdn = $1', values: ['233244000000'] }
 */
import type { DbDialect } from './sql-dialect';
import { splitTemplate } from './template-parts';

export interface BoundQuery {
  text: string;
  values: string[];
}

export class QueryTemplateError extends Error {}

type LexState = 'code' | 'single' | 'double' | 'backtick' | 'bracket' | 'line-comment' | 'block-comment' | 'dollar';

export function placeholderFor(dialect: DbDialect, index: number): string {
  if (dialect === 'postgres') return `$${index}`;
  if (dialect === 'mssql') return `@p${index}`;
  return '?';
}

/** A small SQL lexer that only needs to know whether a position is code, a string, an identifier or a comment. */
class SqlLexer {
  state: LexState = 'code';
  private dollarTag = '';
  /** Index in `out` where the current quoted string opened (its quote character). */
  stringStart = -1;

  constructor(private readonly dialect: DbDialect) {}

  /** Feeds text that is appended to `out` starting at `offset`. */
  feed(text: string, offset: number): void {
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      const next = text[i + 1];
      switch (this.state) {
        case 'code':
          if (ch === "'") this.open('single', offset + i);
          else if (ch === '"') this.open(this.dialect === 'mysql' ? 'single' : 'double', offset + i, '"');
          else if (ch === '`' && this.dialect === 'mysql') this.open('backtick', offset + i);
          else if (ch === '[' && this.dialect === 'mssql') this.open('bracket', offset + i);
          else if (ch === '-' && next === '-') {
            this.state = 'line-comment';
            i++;
          } else if (ch === '#' && this.dialect === 'mysql') this.state = 'line-comment';
          else if (ch === '/' && next === '*') {
            this.state = 'block-comment';
            i++;
          } else if (ch === '$' && this.dialect === 'postgres') {
            const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(text.slice(i));
            if (tag) {
              this.state = 'dollar';
              this.dollarTag = tag[0];
              this.stringStart = offset + i;
              i += tag[0].length - 1;
            }
          }
          break;
        case 'single':
          if (ch === '\\' && this.dialect === 'mysql') i++;
          else if (ch === this.quote) {
            if (next === this.quote) i++;
            else this.state = 'code';
          }
          break;
        case 'double':
          if (ch === '"') {
            if (next === '"') i++;
            else this.state = 'code';
          }
          break;
        case 'backtick':
          if (ch === '`') {
            if (next === '`') i++;
            else this.state = 'code';
          }
          break;
        case 'bracket':
          if (ch === ']') {
            if (next === ']') i++;
            else this.state = 'code';
          }
          break;
        case 'line-comment':
          if (ch === '\n') this.state = 'code';
          break;
        case 'block-comment':
          if (ch === '*' && next === '/') {
            this.state = 'code';
            i++;
          }
          break;
        case 'dollar':
          if (text.startsWith(this.dollarTag, i)) {
            this.state = 'code';
            i += this.dollarTag.length - 1;
          }
          break;
      }
    }
  }

  quote = "'";

  private open(state: LexState, at: number, quote = "'"): void {
    this.state = state;
    this.stringStart = at;
    this.quote = state === 'single' ? quote : this.quote;
  }
}

/**
 * Rewrites the template; `render` renders one `{{ expression }}` over the scope. Throws QueryTemplateError
 * with a builder-facing message when the template cannot be made into bind parameters.
 */
export function bindQueryTemplate(query: string, dialect: DbDialect, render: (source: string) => string): BoundQuery {
  const parts = splitTemplate(query);
  const lexer = new SqlLexer(dialect);
  const values: string[] = [];
  let out = '';
  let skipClosingQuote: string | null = null;
  for (const part of parts) {
    if (part.kind === 'tag') {
      throw new QueryTemplateError(
        'Template tags ({% ... %}) are not allowed in a query: use {{ expressions }}, which are sent as bind parameters',
      );
    }
    if (part.kind === 'text') {
      let text = part.text;
      if (skipClosingQuote !== null) {
        // The quote that closes '{{ x }}' goes with the opening one, already dropped.
        text = text.slice(1);
        skipClosingQuote = null;
      }
      lexer.feed(text, out.length);
      out += text;
      continue;
    }
    const state = lexer.state;
    if (state === 'line-comment' || state === 'block-comment') {
      // Inside a comment the expression is inert text; keep it as written, render nothing.
      lexer.feed(part.source, out.length);
      out += part.source;
      continue;
    }
    if (state === 'single') {
      const quote = lexer.quote;
      const openedRightBefore = lexer.stringStart === out.length - 1;
      const nextPart = parts[parts.indexOf(part) + 1];
      const closesRightAfter = nextPart?.kind === 'text' && nextPart.text.startsWith(quote) && !nextPart.text.startsWith(quote + quote);
      if (!openedRightBefore || !closesRightAfter) {
        throw new QueryTemplateError(
          `A template expression inside a quoted string cannot be a bind parameter (${part.source}): write it without quotes, e.g. name = {{ x }}, or join strings in SQL, e.g. '%' || {{ x }} || '%'`,
        );
      }
      out = out.slice(0, -1);
      lexer.state = 'code';
      skipClosingQuote = quote;
    } else if (state !== 'code') {
      const where = state === 'dollar' ? 'a dollar-quoted string' : 'a quoted identifier';
      throw new QueryTemplateError(`A template expression inside ${where} cannot be a bind parameter (${part.source})`);
    }
    values.push(render(part.source));
    out += placeholderFor(dialect, values.length);
  }
  return { text: out, values };
}
