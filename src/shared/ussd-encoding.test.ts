import { describe, expect, it } from 'vitest';
import { applyLookAlikes, fitScreenUnits, gsmSeptets, measureScreen, toUcs2Limit } from './ussd-encoding';

/** Golden cases: screens in the languages our customers add, as the network carries them. */
describe('a USSD screen as the network carries it', () => {
  it("holds GSM 03.38's 127 one-septet characters and its 10 two-septet ones", () => {
    const basic =
      '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
    expect([...basic]).toHaveLength(127);
    expect([...basic].every((c) => gsmSeptets(c) === 1)).toBe(true);
    expect([...'^{}\\[~]|€\f'].map(gsmSeptets)).toEqual([2, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
    expect(toUcs2Limit(160)).toBe(70);
    expect(toUcs2Limit(182)).toBe(79);
  });

  it.each([
    // English: GSM-7 throughout.
    ['English', 'Welcome to Ama Shop\n1. Buy airtime\n2. Check balance', 'GSM-7', 51, 160, []],
    // Twi: ɛ and ɔ are outside the alphabet.
    ['Twi', 'Akwaaba! Wo ho te sɛn?\n1. Tɔ airtime\n2. Hwɛ wo sika', 'UCS-2', 51, 70, ['ɛ', 'ɔ']],
    // Yoruba: ẹ, ọ, ú and á, and a combining grave accent (U+0300) after ọ; à and ì are GSM-7's own.
    ['Yoruba', 'Ẹ kú àárọ̀\n1. Ra káàdì', 'UCS-2', 22, 70, ['Ẹ', 'ú', 'á', 'ọ', '\u0300']],
    // Hausa: ƙ and ɗ.
    ['Hausa', 'Barka da zuwa\n1. Ƙara kuɗi', 'UCS-2', 26, 70, ['Ƙ', 'ɗ']],
    // Extension characters count two septets and keep GSM-7.
    ['braces and the euro', 'Pay €5 {now}', 'GSM-7', 15, 160, []],
    // An emoji is two UTF-16 units; a zero-width space is invisible and still forces UCS-2.
    ['emoji and a zero-width space', 'Hi 👋\u200b', 'UCS-2', 6, 70, ['👋', '\u200b']],
  ] as const)('%s', (_language, text, encoding, length, limit, nonGsm) => {
    const measure = measureScreen(text, 160);
    expect(measure).toMatchObject({ encoding, length, limit });
    expect(measure.nonGsm).toEqual(nonGsm);
  });

  it('offers GSM look-alikes for the letters that have one, and none for the others', () => {
    expect(measureScreen('Tɔ ₦500 “now”', 160).lookAlikes).toEqual({ ɔ: 'o', '₦': 'N', '“': '"', '”': '"' });
    expect(measureScreen('Hi 👋', 160).lookAlikes).toEqual({});
  });

  it('fits a page to the budget in the screen encoding: two septets for an extension character, never half an emoji', () => {
    expect(fitScreenUnits('abc{de', 4, 'GSM-7')).toBe(3);
    expect(fitScreenUnits('abc{de', 5, 'GSM-7')).toBe(4);
    expect(fitScreenUnits('ab👋cd', 3, 'UCS-2')).toBe(2);
    expect(fitScreenUnits('ab👋cd', 4, 'UCS-2')).toBe(4);
  });
});

describe('applyLookAlikes', () => {
  it('puts in the chosen look-alikes and nothing else, by code point', () => {
    const twi = 'Akwaaba! Wo ho te sɛn?\n1. Tɔ airtime 😀';
    const measure = measureScreen(twi, 160);
    const swapped = applyLookAlikes(twi, measure.lookAlikes);
    // The emoji has no look-alike: it stays, and the screen is still UCS-2 because of it alone.
    expect(swapped).toBe('Akwaaba! Wo ho te sen?\n1. To airtime 😀');
    expect(measureScreen(swapped, 160).nonGsm).toEqual(['😀']);
    expect(measureScreen(applyLookAlikes('Ẹ ku ọjọ́ ₦50', { Ẹ: 'E', ọ: 'o', '₦': 'N' }), 160).nonGsm).toEqual(['\u0301']);
    expect(applyLookAlikes('no change', {})).toBe('no change');
  });
});
