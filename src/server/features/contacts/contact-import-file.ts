/**
 * How a contacts CSV file reads (docs/contacts.md, "Importing a CSV"): its columns from the header, then each row
 * as a contact (the number in E.164 form, name, language, attributes, consent per channel) or the row's errors.
 * Rows are read one at a time; only the numbers seen so far are kept, to name the row a duplicate repeats.
 */
import { CONTACT_IMPORT_LIMITS, CONTACT_IMPORT_MESSAGES, type ImportColumn } from '../../../shared/api/contact-imports.schema';
import { CONTACT_MESSAGES, LANGUAGE_CODE } from '../../../shared/api/contacts.schema';
import { CONTACT_FIELD_PATTERN } from '../../../shared/app/menu.schema';
import { CONSENT_CHANNELS, type ConsentChannel } from '../../../shared/contact-consent';
import { CsvError, readCsvRows } from '../../../shared/table-file';
import { invalid } from '../../../shared/errors';
import { toE164 } from '../../core/msisdn';

/** Headers read as the phone number column (lower case, spaces and dashes as `_`). */
const PHONE_HEADERS = new Set(['phone', 'phone_number', 'phonenumber', 'msisdn', 'mobile', 'mobile_number', 'number']);
const YES = new Set(['yes', 'y', 'true', '1', 'in', 'opted in', 'opt in']);
const NO = new Set(['no', 'n', 'false', '0', 'out', 'opted out', 'opt out']);
/** The export's columns an import does not take back (when and how consent was given, the times seen). */
const EXPORT_ONLY = new RegExp(`^(${CONSENT_CHANNELS.join('|')})_(consent_at|consent_source|first_seen|last_seen)$`);
const MAX_ATTRIBUTES = 50;
const MAX_NAME = 200;
const MAX_VALUE = 500;

/** A row read as a contact, or with the errors that skip it. `row` counts the header as row 1. */
export interface ImportRow {
  row: number;
  cells: string[];
  /** The phone cell as written. */
  value: string;
  msisdn: string | null;
  name: string | null;
  language: string | null;
  attributes: Record<string, string>;
  consent: Partial<Record<ConsentChannel, 'in' | 'out'>>;
  errors: string[];
}

export interface ImportFile {
  columns: ImportColumn[];
  hasConsent: boolean;
  /** The rows, read as they are asked for. */
  rows: () => Generator<ImportRow>;
}

const normalHeader = (header: string) =>
  header
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/** What each header is read as; a header that is no attribute key, or one given twice, carries an error. */
export function readColumns(header: string[]): ImportColumn[] {
  const seen = new Set<string>();
  return header.map((raw): ImportColumn => {
    const text = raw.trim();
    const normal = normalHeader(text);
    const column = ((): ImportColumn => {
      if (text === '' || EXPORT_ONLY.test(normal)) return { header: raw, kind: 'ignored', key: null, error: null };
      if (PHONE_HEADERS.has(normal)) return { header: raw, kind: 'phone', key: null, error: null };
      if (normal === 'name' || normal === 'language') return { header: raw, kind: normal, key: null, error: null };
      const channel = CONSENT_CHANNELS.find((c) => normal === `${c}_consent`);
      if (channel) return { header: raw, kind: 'consent', key: channel, error: null };
      const keyError = CONTACT_FIELD_PATTERN.test(text) ? null : `"${text}" is not an attribute key: ${CONTACT_MESSAGES.attributeKey}`;
      return { header: raw, kind: 'attribute', key: text, error: keyError };
    })();
    const identity = `${column.kind}:${column.kind === 'attribute' ? column.key : (column.key ?? '')}`;
    if (column.kind !== 'ignored' && seen.has(identity)) return { ...column, error: `The column "${text}" is given twice` };
    seen.add(identity);
    return column;
  });
}

/**
 * Opens a CSV file: reads its header and checks what makes the whole file unreadable (no phone column, too many
 * rows, a quote left open, more attributes than a contact keeps), refusing it with a clear message before
 * anything is written. Column errors (a header that is no attribute key) are given back for the caller to show
 * or refuse on.
 */
export function openImportFile(csv: string, country: string): ImportFile & { rowCount: number } {
  const rows = guardCsv(() => readCsvRows(csv));
  const first = guardCsv(() => rows.next());
  if (first.done) throw invalid(CONTACT_IMPORT_MESSAGES.noRows);
  const columns = readColumns(first.value);
  if (!columns.some((c) => c.kind === 'phone')) throw invalid(CONTACT_IMPORT_MESSAGES.noPhoneColumn);
  if (columns.filter((c) => c.kind === 'attribute').length > MAX_ATTRIBUTES) throw invalid(CONTACT_MESSAGES.tooManyAttributes);
  let rowCount = 0;
  guardCsv(() => {
    for (const _ of rows) if (++rowCount > CONTACT_IMPORT_LIMITS.maxRows) throw invalid(CONTACT_IMPORT_MESSAGES.tooManyRows);
  });
  if (rowCount === 0) throw invalid(CONTACT_IMPORT_MESSAGES.noRows);
  return {
    columns,
    rowCount,
    hasConsent: columns.some((c) => c.kind === 'consent'),
    rows: () => readRows(csv, columns, country),
  };
}

/** A CsvError as the file's refusal. */
function guardCsv<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof CsvError) throw invalid(`The file is not a readable CSV: ${err.message}`);
    throw err;
  }
}

function* readRows(csv: string, columns: ImportColumn[], country: string): Generator<ImportRow> {
  const firstRowOf = new Map<string, number>();
  let row = 0;
  for (const cells of readCsvRows(csv)) {
    row++;
    if (row === 1) continue;
    yield readRow(row, cells, columns, country, firstRowOf);
  }
}

function readRow(row: number, cells: string[], columns: ImportColumn[], country: string, firstRowOf: Map<string, number>): ImportRow {
  const read: ImportRow = { row, cells, value: '', msisdn: null, name: null, language: null, attributes: {}, consent: {}, errors: [] };
  columns.forEach((column, i) => {
    const cell = (cells[i] ?? '').trim();
    switch (column.kind) {
      case 'phone': {
        read.value = cell;
        if (cell === '') read.errors.push('No phone number');
        else {
          read.msisdn = toE164(cell, country);
          if (!read.msisdn) read.errors.push(`Not a phone number: ${cell.slice(0, 40)}`);
        }
        break;
      }
      case 'name':
        if (cell.length > MAX_NAME) read.errors.push(`The name is longer than ${MAX_NAME} characters`);
        else if (cell) read.name = cell;
        break;
      case 'language':
        if (cell && !LANGUAGE_CODE.test(cell)) read.errors.push(`Not a language code: ${cell.slice(0, 20)} (en, fr, tw...)`);
        else if (cell) read.language = cell;
        break;
      case 'attribute':
        if (cell.length > MAX_VALUE) read.errors.push(`${column.key} is longer than ${MAX_VALUE} characters`);
        else if (cell && column.key) read.attributes[column.key] = cell;
        break;
      case 'consent': {
        const answer = cell.toLowerCase();
        if (YES.has(answer)) read.consent[column.key as ConsentChannel] = 'in';
        else if (NO.has(answer)) read.consent[column.key as ConsentChannel] = 'out';
        else if (answer) read.errors.push(`${column.header.trim()} is yes or no, not ${cell.slice(0, 20)}`);
        break;
      }
      case 'ignored':
        break;
    }
  });
  if (read.msisdn) {
    const earlier = firstRowOf.get(read.msisdn);
    if (earlier !== undefined) read.errors.push(`Same number as row ${earlier} (${read.msisdn})`);
    else firstRowOf.set(read.msisdn, row);
  }
  return read;
}
