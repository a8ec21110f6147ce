import { describe, expect, it } from 'vitest';
import { inputsAsText, toCsv, toTsv } from './table-export';

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

  it("writes a bot's file input as its signed link, a location and a file without a link as stored", () => {
    const url = 'http://127.0.0.1/media/0b7c?expires=1&signature=ab';
    const file = { mediaId: '0b7c', kind: 'image' as const, mimeType: 'image/png', size: 3 };
    expect(
      inputsAsText(
        { photo: '0b7c', where: '5.6,-0.2', old: 'e1d2', name: 'Ama' },
        { photo: { ...file, url }, where: { latitude: 5.6, longitude: -0.2 }, old: { ...file, mediaId: 'e1d2' } },
      ),
    ).toBe(`photo=${url}; where=5.6,-0.2; old=e1d2; name=Ama`);
    expect(inputsAsText({ name: 'Ama' })).toBe('name=Ama');
  });
});
