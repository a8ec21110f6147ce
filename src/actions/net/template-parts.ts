/**
 * Splits a builder's template into literal text, `{{ output }}` expressions and `{% tag %}` blocks, so a
 * runner can render each expression on its own and place its value by context: as a bind parameter in SQL,
 * JSON-escaped inside a JSON string, percent-encoded in a URL path or query, XML-escaped in XML. A value
 * typed by a USSD user then stays data and never becomes syntax.
 *
 * @example splitTemplate('a={{ x }}&b=2') // [{ kind:'text', text:'a=' }, { kind:'output', source:'{{ x }}' }, { kind:'text', text:'&b=2' }]
 */

export type TemplatePart = { kind: 'text'; text: string } | { kind: 'output'; source: string } | { kind: 'tag'; source: string };

/** Index just past the closing delimiter, skipping quoted strings inside the expression; -1 when unclosed. */
function findClose(source: string, from: number, close: string): number {
  let quote: string | null = null;
  for (let i = from; i < source.length; i++) {
    const ch = source[i];
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (source.startsWith(close, i)) {
      return i + close.length;
    }
  }
  return -1;
}

/**
 * Splits a template. Whitespace control (`{{-` and `-}}`) trims the neighbouring text as Liquid would.
 * Throws on an unclosed `{{` or `{%`.
 */
export function splitTemplate(source: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let i = 0;
  let trimNext = false;
  const pushText = (text: string) => {
    const t = trimNext ? text.replace(/^\s+/, '') : text;
    trimNext = false;
    if (t) parts.push({ kind: 'text', text: t });
  };
  while (i < source.length) {
    const outAt = source.indexOf('{{', i);
    const tagAt = source.indexOf('{%', i);
    const at = outAt === -1 ? tagAt : tagAt === -1 ? outAt : Math.min(outAt, tagAt);
    if (at === -1) {
      pushText(source.slice(i));
      break;
    }
    const isOutput = at === outAt;
    let text = source.slice(i, at);
    if (source[at + 2] === '-') text = text.replace(/\s+$/, '');
    pushText(text);
    const end = findClose(source, at + 2, isOutput ? '}}' : '%}');
    if (end === -1) throw new Error(`Unclosed ${isOutput ? '{{' : '{%'} in template at character ${at + 1}`);
    const piece = source.slice(at, end);
    parts.push(isOutput ? { kind: 'output', source: piece } : { kind: 'tag', source: piece });
    trimNext = source[end - 3] === '-';
    i = end;
  }
  return parts;
}

export function hasTags(parts: TemplatePart[]): boolean {
  return parts.some((p) => p.kind === 'tag');
}
