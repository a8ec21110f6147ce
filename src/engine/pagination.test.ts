import { describe, expect, it } from 'vitest';
import { MORE_LINE, paginateScreen, truncateScreen } from './pagination';

describe('paginateScreen', () => {
  it('keeps a screen within the limit whole', () => {
    expect(paginateScreen('Pick:\n1. A', 160)).toEqual(['Pick:\n1. A']);
    expect(paginateScreen('x'.repeat(160), 160)).toHaveLength(1);
  });

  it('splits at line breaks, every page within the limit, all but the last ending 98. More', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `${i + 1}. Item number ${i + 1}`);
    for (const limit of [60, 160, 182]) {
      const pages = paginateScreen(lines.join('\n'), limit);
      expect(pages.length).toBeGreaterThan(1);
      pages.forEach((page, i) => {
        expect(page.length).toBeLessThanOrEqual(limit);
        expect(page.endsWith(`\n${MORE_LINE}`)).toBe(i < pages.length - 1);
      });
      // No line is lost or cut.
      const shown = pages.flatMap((p) => p.split('\n')).filter((l) => l !== MORE_LINE);
      expect(shown).toEqual(lines);
    }
  });

  it('cuts a single overlong line at a space, never inside an emoji', () => {
    const pages = paginateScreen(`${'word '.repeat(60)}`.trim(), 100);
    for (const p of pages) expect(p.length).toBeLessThanOrEqual(100);
    expect(pages.join(' ').replaceAll(`\n${MORE_LINE}`, '').split(/\s+/).filter(Boolean)).toHaveLength(60);
    const emoji = paginateScreen('😀'.repeat(100), 60);
    for (const page of emoji) expect(page.replace(`\n${MORE_LINE}`, '')).toMatch(/^(😀)+$/u);
  });
});

describe('pages cut to the encoding the network carries', () => {
  const twi = ['Yɛma wo akwaaba!', '1. Tɔ airtime', '2. Hwɛ wo sika', '3. Fa sika kɔma obi', '4. Bɔ ka', '5. Mmoa', '6. Sesa wo PIN'];
  it('a Twi menu of 97 characters fits a 160 limit in characters but not as UCS-2: 70 a page', () => {
    const screen = twi.join('\n');
    expect(screen.length).toBe(97);
    const pages = paginateScreen(screen, 160);
    expect(pages).toHaveLength(2);
    for (const page of pages) expect(page.length).toBeLessThanOrEqual(70);
    expect(pages.flatMap((p) => p.split('\n')).filter((l) => l !== MORE_LINE)).toEqual(twi);
  });

  it('a Hausa closing screen is cut to the UCS-2 limit; an English one of the same length is not', () => {
    const hausa = 'Na gode! An ƙara kuɗin ku. Za ku sami saƙo idan an gama. Barka da rana, sai an jima.';
    expect(truncateScreen(hausa, 160).length).toBeLessThanOrEqual(70);
    const english = 'Thank you! Your money was added. You will get a message when it is done. Good day.';
    expect(truncateScreen(english, 160)).toBe(english);
  });

  it('counts a GSM-7 extension character as two septets', () => {
    const braces = `${'{'.repeat(80)}\n${'}'.repeat(10)}`;
    // 90 characters, 181 septets: over a 160 limit.
    expect(paginateScreen(braces, 160)).toHaveLength(2);
    expect(paginateScreen('x'.repeat(90), 160)).toHaveLength(1);
  });
});

describe('truncateScreen', () => {
  it('keeps whole lines, then whole words', () => {
    expect(truncateScreen('Thank you, Ama.\nSee you soon', 20)).toBe('Thank you, Ama.');
    expect(truncateScreen('Thanks.\nSee you soon, and goodbye', 20)).toBe('Thanks.\nSee you');
    expect(truncateScreen('x'.repeat(30), 20)).toBe('x'.repeat(20));
    expect(truncateScreen('Thanks for using the service today', 20)).toBe('Thanks for using the');
    expect(truncateScreen('short', 20)).toBe('short');
  });
});
