import { describe, expect, it } from 'vitest';
import { countSmsParts } from './sms-parts';

describe('countSmsParts', () => {
  it('counts GSM-7 texts by 160, then 153 a part', () => {
    expect(countSmsParts('Dial *920*12# for our offers')).toEqual({ encoding: 'GSM-7', parts: 1, length: 28, nonGsm: [] });
    expect(countSmsParts('a'.repeat(160)).parts).toBe(1);
    expect(countSmsParts('a'.repeat(161)).parts).toBe(2);
    expect(countSmsParts('a'.repeat(306)).parts).toBe(2);
    expect(countSmsParts('a'.repeat(307)).parts).toBe(3);
  });

  it('counts an extension character as two', () => {
    expect(countSmsParts(`${'a'.repeat(159)}€`)).toMatchObject({ encoding: 'GSM-7', parts: 2, length: 161 });
  });

  it('sends the whole text as UCS-2 for one character outside GSM-7, by 70, then 67 a part', () => {
    expect(countSmsParts(`Akwaaba ${'a'.repeat(60)} ɛ`)).toMatchObject({ encoding: 'UCS-2', parts: 1, nonGsm: ['ɛ'] });
    expect(countSmsParts(`ɛ${'a'.repeat(70)}`)).toMatchObject({ encoding: 'UCS-2', parts: 2 });
    expect(countSmsParts(`ɛ${'a'.repeat(133)}`).parts).toBe(2);
    expect(countSmsParts(`ɛ${'a'.repeat(134)}`).parts).toBe(3);
  });

  it('an empty text is no part', () => {
    expect(countSmsParts('').parts).toBe(0);
  });
});
