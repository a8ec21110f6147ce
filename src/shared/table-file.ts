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
