/**
 * Cells of the table files people download (CSV, and Excel 2003 XML workbooks): one writer for the console's
 * client-side CSV and the server's streamed exports.
 */

/** A plain signed number (`+233241000002`, `-5`, `12.50`): a spreadsheet reads it as a number, never as a formula. */
const PLAIN_NUMBER = /^[+-]?\d[\d.,]*$/;

/**
 * A CSV cell: always quoted; a value starting with = + - @ or a tab/CR gets a leading ' so a spreadsheet
 * never runs it as a formula (OWASP CSV injection), unless it is a plain number such as a mobile number.
 */
export function toCsvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}

export const toCsvLine = (cells: string[]) => `${cells.map(toCsvCell).join(',')}\r\n`;

/** A SpreadsheetML string cell; characters XML 1.0 cannot hold (C0 controls other than tab and newlines) are dropped. */
export function toXmlCell(value: string): string {
  const escaped = value
    .replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '');
  return `<Cell><Data ss:Type="String">${escaped}</Data></Cell>`;
}

/** A CSV file that cannot be read: a quote left open. `line` is where the unreadable cell starts. */
export class CsvError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
    this.name = 'CsvError';
  }
}

/**
 * The rows of a CSV text (RFC 4180: comma-separated, `"` quotes a cell, `""` is a quote inside one, a quoted cell
 * may hold line breaks; CRLF or LF ends a row; a leading byte order mark is dropped), one at a time, so a large
 * file is never held as one array of rows. Blank lines are skipped. A quote left open throws a CsvError.
 * @example [...readCsvRows('phone,name\r\n"+233241000001","Ama ""A"" Owusu"\r\n')] // [['phone','name'], ['+233241000001','Ama "A" Owusu']]
 */
export function* readCsvRows(text: string): Generator<string[]> {
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const end = text.length;
  let line = 1;
  while (at < end) {
    const row: string[] = [];
    let rowEnded = false;
    while (!rowEnded) {
      let cell: string;
      if (text[at] === '"') {
        const startLine = line;
        let parts = '';
        let from = at + 1;
        for (;;) {
          const quote = text.indexOf('"', from);
          if (quote < 0) throw new CsvError(`A quote opened on line ${startLine} is never closed`, startLine);
          parts += text.slice(from, quote);
          if (text[quote + 1] === '"') {
            parts += '"';
            from = quote + 2;
          } else {
            at = quote + 1;
            break;
          }
        }
        for (let i = parts.indexOf('\n'); i >= 0; i = parts.indexOf('\n', i + 1)) line++;
        // Anything between the closing quote and the next separator is kept, as spreadsheets do.
        const next = nextSeparator(text, at);
        cell = parts + text.slice(at, next);
        at = next;
      } else {
        const next = nextSeparator(text, at);
        cell = text.slice(at, next);
        at = next;
      }
      row.push(cell);
      if (text[at] === ',') at++;
      else {
        if (text[at] === '\r') at++;
        if (text[at] === '\n') at++;
        line++;
        rowEnded = true;
      }
    }
    if (row.length > 1 || row[0] !== '') yield row;
  }
}

/** Where the unquoted cell starting at `from` ends: the next comma, CR or LF, or the end. */
function nextSeparator(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 44 || c === 13 || c === 10) return i;
  }
  return text.length;
}
