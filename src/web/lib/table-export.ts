/**
 * Copy and CSV of a table the screen already holds (the rows on screen are what the user asked for). The
 * session search exports on the server instead (POST /dashboard/search/export), since it can match more
 * sessions than the screen loads.
 */
import type { SessionMedia } from '../../shared/api/monitoring.schema';
import { toCsvLine } from '../../shared/table-file';
import { saveBlob } from './save-blob';

export interface ExportTable {
  headers: string[];
  rows: string[][];
}

/** CSV with a byte-order mark, so Excel reads it as UTF-8; cells as the server's exports write them. */
export function toCsv(table: ExportTable): string {
  return `\uFEFF${[table.headers, ...table.rows].map(toCsvLine).join('')}`;
}

/** Tab-separated text: pastes into a spreadsheet as cells. */
export function toTsv(table: ExportTable): string {
  return [table.headers, ...table.rows].map((row) => row.map((cell) => cell.replace(/[\t\r\n]+/g, ' ')).join('\t')).join('\n');
}

export const downloadText = (fileName: string, text: string, type: string) => saveBlob(fileName, new Blob([text], { type }));

export const downloadCsv = (fileName: string, table: ExportTable) =>
  downloadText(`${fileName}.csv`, toCsv(table), 'text/csv;charset=utf-8');

/**
 * A map of inputs as one line of text, for exports of the normal (not flat) tables. A bot's file input is its
 * signed link where the session's `media` gives one (docs/media.md, "In the console"), else its media id.
 */
export const inputsAsText = (inputs: Record<string, string>, media: SessionMedia = {}) =>
  Object.entries(inputs)
    .map(([field, value]) => {
      const received = media[field];
      return `${field}=${received && 'mediaId' in received && received.url ? received.url : value}`;
    })
    .join('; ');

/** Dates as the tables show them: local, to the second. */
export function formatTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
