import { describe, expect, it } from 'vitest';
import { CsvError, readCsvRows, toCsvCell, toCsvLine, toXmlCell } from './table-file';

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

describe('readCsvRows', () => {
  it('reads quoted cells, doubled quotes, line breaks inside quotes, CRLF and LF, and drops a byte order mark', () => {
    const text = '\uFEFFphone,name,note\r\n"+233241000001","Ama ""A"" Owusu","two\nlines"\n0241000002,Kofi,\r\n';
    expect([...readCsvRows(text)]).toEqual([
      ['phone', 'name', 'note'],
      ['+233241000001', 'Ama "A" Owusu', 'two\nlines'],
      ['0241000002', 'Kofi', ''],
    ]);
  });

  it('skips blank lines and reads a last row without a line break', () => {
    expect([...readCsvRows('a,b\n\n1,2\n\n3,4')]).toEqual([
      ['a', 'b'],
      ['1', '2'],
      ['3', '4'],
    ]);
  });

  it('reads back what the exports write', () => {
    // A formula comes back with the ' the export put before it, so it stays text.
    const cells = ['+233241000001', 'a, "b"', '=SUM(A1)', 'x\r\ny'];
    expect([...readCsvRows(toCsvLine(cells))]).toEqual([['+233241000001', 'a, "b"', "'=SUM(A1)", 'x\r\ny']]);
  });

  it('refuses a quote left open, naming the line it opened on', () => {
    expect(() => [...readCsvRows('phone,name\n1,"Ama\n2,Kofi')]).toThrow(CsvError);
    expect(() => [...readCsvRows('phone,name\n1,"Ama\n2,Kofi')]).toThrow('A quote opened on line 2 is never closed');
  });
});
