/**
 * Copy, CSV and Excel exports of a table the screen already holds (client-side: the rows on screen are what
 * the user asked for). Excel is SpreadsheetML 2003 (an XML workbook saved as .xls) because no xlsx writer is
 * installed; Excel, LibreOffice and Numbers open it as a sheet with typed text cells.
 */
export interface ExportTable {
  headers: string[];
  rows: string[][];
}

const csvCell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

export function toCsv(table: ExportTable): string {
  return [table.headers, ...table.rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** Tab-separated text: pastes into a spreadsheet as cells. */
export function toTsv(table: ExportTable): string {
  return [table.headers, ...table.rows].map((row) => row.map((cell) => cell.replace(/[\t\r\n]+/g, ' ')).join('\t')).join('\n');
}

const xmlText = (value: string) =>
  value.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/** A one-sheet SpreadsheetML 2003 workbook, headers in bold. */
export function toSpreadsheetXml(table: ExportTable, sheetName = 'Sheet1'): string {
  const row = (cells: string[], style = '') =>
    `<Row>${cells.map((cell) => `<Cell${style}><Data ss:Type="String">${xmlText(cell)}</Data></Cell>`).join('')}</Row>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<?mso-application progid="Excel.Sheet"?>',
    '<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet" xmlns:ss="urn:schemas-microsoft-com:office:spreadsheet">',
    '<Styles><Style ss:ID="h"><Font ss:Bold="1"/></Style></Styles>',
    `<Worksheet ss:Name="${xmlText(sheetName.slice(0, 31))}"><Table>`,
    row(table.headers, ' ss:StyleID="h"'),
    ...table.rows.map((cells) => row(cells)),
    '</Table></Worksheet></Workbook>',
  ].join('\n');
}

export function downloadText(fileName: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export const downloadCsv = (fileName: string, table: ExportTable) => downloadText(`${fileName}.csv`, toCsv(table), 'text/csv;charset=utf-8');

export const downloadExcel = (fileName: string, table: ExportTable) =>
  downloadText(`${fileName}.xls`, toSpreadsheetXml(table), 'application/vnd.ms-excel');

/** A map of inputs as one line of text, for exports of the normal (not flat) tables. */
export const inputsAsText = (inputs: Record<string, string>) =>
  Object.entries(inputs)
    .map(([field, value]) => `${field}=${value}`)
    .join('; ');

/** Dates as the tables show them: local, to the second. */
export function formatTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
