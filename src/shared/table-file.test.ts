import { describe, expect, it } from 'vitest';
import { toCsvCell, toCsvLine, toXmlCell } from './table-file';

describe('table file cells', () => {
  it('quotes every CSV cell and doubles quotes', () => {
    expect(toCsvLine(['a', 'b,c', 'say "hi"', 'two\nlines'])).toBe('"a","b,c","say ""hi""","two\nlines"\r\n');
  });

  it('defuses cells a spreadsheet would run as formulas', () => {
    for (const value of ['=HYPERLINK("x")', '+SUM(A1)', '-1+cmd|x', '@SUM(A1)', '\t=1', '\r=1', '+233 1'])
      expect(toCsvCell(value)).toBe(`"'${value.replaceAll('"', '""')}"`);
    // Numbers stay readable: a mobile number keeps its +, an amount its sign.
    for (const value of ['233241', '+233241000002', '-5', '-12.50']) expect(toCsvCell(value)).toBe(`"${value}"`);
  });

  it('escapes XML cells and drops characters XML cannot hold', () => {
    expect(toXmlCell('a<b & "c"\u0001\u000b')).toBe('<Cell><Data ss:Type="String">a&lt;b &amp; &quot;c&quot;</Data></Cell>');
    expect(toXmlCell('tab\tnew\nline')).toContain('tab\tnew\nline');
  });
});
