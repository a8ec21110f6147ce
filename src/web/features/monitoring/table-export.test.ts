import { describe, expect, it } from 'vitest';
import { toCsv, toSpreadsheetXml, toTsv } from './table-export';

describe('table exports', () => {
  const table = { headers: ['mobile', 'note'], rows: [['233241', 'said "hi", then left'], ['233242', 'a<b & c']] };

  it('quotes CSV cells with commas and quotes', () => {
    expect(toCsv(table)).toBe('mobile,note\r\n233241,"said ""hi"", then left"\r\n233242,a<b & c\r\n');
  });

  it('writes tab-separated text for the clipboard', () => {
    expect(toTsv(table).split('\n')[1]).toBe('233241\tsaid "hi", then left');
  });

  it('escapes the SpreadsheetML cells', () => {
    const xml = toSpreadsheetXml(table);
    expect(xml).toContain('<Data ss:Type="String">a&lt;b &amp; c</Data>');
    expect(xml).toContain('<?mso-application progid="Excel.Sheet"?>');
  });
});
