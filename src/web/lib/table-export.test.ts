import { describe, expect, it } from 'vitest';
import { toCsv, toTsv } from './table-export';

describe('table exports', () => {
  const table = {
    headers: ['mobile', 'note'],
    rows: [
      ['233241', 'said "hi", then left'],
      ['233242', '=1+1'],
    ],
  };

  it('writes CSV with a BOM, every cell quoted and formulas defused', () => {
    expect(toCsv(table)).toBe('\uFEFF"mobile","note"\r\n"233241","said ""hi"", then left"\r\n"233242","\'=1+1"\r\n');
  });

  it('writes tab-separated text for the clipboard', () => {
    expect(toTsv(table).split('\n')[1]).toBe('233241\tsaid "hi", then left');
  });
});
