import { describe, expect, it } from 'vitest';
import { getConsentReply, readConsentKeyword, type ConsentKeywords } from './contact-consent';

const own: ConsentKeywords = {
  optOutWords: { en: ['no more'], fr: ['Arrêt'] },
  optInWords: { fr: ['reprendre'] },
  optOutReply: { fr: 'Vous ne recevrez plus de messages de {app}.' },
  optInReply: {},
};

describe('readConsentKeyword', () => {
  it.each(['STOP', ' stop ', 'Unsubscribe', 'CANCEL', 'end', 'Quit', 'STOPALL'])('%s opts out', (text) => {
    expect(readConsentKeyword(text, null)).toEqual({ status: 'out', word: text.trim().toLowerCase(), language: null });
  });

  it('START opts in; other text, a word inside a sentence and an empty message are no keyword', () => {
    expect(readConsentKeyword('Start', null)).toEqual({ status: 'in', word: 'start', language: null });
    expect(readConsentKeyword('please stop', null)).toBeNull();
    expect(readConsentKeyword('1', null)).toBeNull();
    expect(readConsentKeyword('  ', null)).toBeNull();
  });

  it("reads the bot's own words per language, in any case and spacing", () => {
    expect(readConsentKeyword(' ARRÊT', own)).toEqual({ status: 'out', word: 'arrêt', language: 'fr' });
    expect(readConsentKeyword('No   more', own)).toEqual({ status: 'out', word: 'no more', language: 'en' });
    expect(readConsentKeyword('reprendre', own)).toEqual({ status: 'in', word: 'reprendre', language: 'fr' });
    expect(readConsentKeyword('stop', own)).toEqual({ status: 'out', word: 'stop', language: null });
  });
});

describe('getConsentReply', () => {
  it("answers in the word's language, else the fallback's, else the default sentence, with the bot's name", () => {
    expect(getConsentReply({ status: 'out', word: 'arrêt', language: 'fr' }, own, 'Shop', 'en')).toBe(
      'Vous ne recevrez plus de messages de Shop.',
    );
    expect(getConsentReply({ status: 'out', word: 'stop', language: null }, own, 'Shop', 'fr')).toBe(
      'Vous ne recevrez plus de messages de Shop.',
    );
    expect(getConsentReply({ status: 'out', word: 'stop', language: null }, null, 'Shop', null)).toBe(
      'You will get no more messages from Shop. Send START to get them again.',
    );
    expect(getConsentReply({ status: 'in', word: 'start', language: null }, own, 'Shop', null)).toBe(
      'You will get messages from Shop again. Send STOP to stop them.',
    );
  });
});
