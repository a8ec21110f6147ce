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

describe('truncateScreen', () => {
  it('keeps whole lines, then whole words', () => {
    expect(truncateScreen('Thank you, Ama.\nSee you soon', 20)).toBe('Thank you, Ama.');
    expect(truncateScreen('Thanks.\nSee you soon, and goodbye', 20)).toBe('Thanks.\nSee you');
    expect(truncateScreen('x'.repeat(30), 20)).toBe('x'.repeat(20));
    expect(truncateScreen('Thanks for using the service today', 20)).toBe('Thanks for using the');
    expect(truncateScreen('short', 20)).toBe('short');
  });
});
