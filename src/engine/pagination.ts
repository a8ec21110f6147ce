/**
 * Splitting a long screen into pages. A page that is not the last ends with `98. More`; typing 98
 * shows the next page. Lengths are UTF-16 code units, which never undercounts what a gateway sends.
 */
export const NEXT_PAGE_INPUT = '98';
export const MORE_LINE = `${NEXT_PAGE_INPUT}. More`;

/** `98. Plus` for an app whose French `more` label is `Plus`. */
export const toMoreLine = (label: string) => `${NEXT_PAGE_INPUT}. ${label}`;

/**
 * @example paginateScreen('Pick:\n1. A\n2. B', 160) // ['Pick:\n1. A\n2. B']
 * paginateScreen(longText, 160) // ['...\n98. More', '...\n98. More', '...']
 * paginateScreen(longText, 160, toMoreLine('Plus')) // ['...\n98. Plus', ...]
 */
export function paginateScreen(text: string, limit: number, moreLine: string = MORE_LINE): string[] {
  if (text.length <= limit) return [text];
  const budget = limit - moreLine.length - 1;
  const pages: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    const cut = findPageCut(rest, budget);
    pages.push(`${rest.slice(0, cut).trimEnd()}\n${moreLine}`);
    rest = rest.slice(cut).replace(/^\n+/, '');
  }
  pages.push(rest);
  return pages;
}

/** The end of the longest run of whole lines within budget; a single overlong line is cut at a space. */
function findPageCut(text: string, budget: number): number {
  const lineBreak = text.lastIndexOf('\n', budget);
  if (lineBreak > 0) return lineBreak;
  const space = text.lastIndexOf(' ', budget);
  if (space > budget / 2) return space + 1;
  // Never split a surrogate pair: an emoji on the cut moves to the next page.
  const code = text.charCodeAt(budget - 1);
  return code >= 0xd800 && code <= 0xdbff ? budget - 1 : budget;
}

/** For an END screen, which cannot page: whole lines within the limit, else whole words, else a hard cut. */
export function truncateScreen(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const lineBreak = text.lastIndexOf('\n', limit);
  if (lineBreak > limit / 2) return text.slice(0, lineBreak).trimEnd();
  const space = text.lastIndexOf(' ', limit);
  if (space > limit / 2) return text.slice(0, space).trimEnd();
  const code = text.charCodeAt(limit - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit);
}
