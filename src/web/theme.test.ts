import { DEFAULT_THEME, defaultCssVariablesResolver, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { darkenToContrast, getContrastRatio, TEXT_CONTRAST } from './lib/contrast';
import { cssVariablesResolver, findReadableColours, theme } from './theme';

const WHITE = '#ffffff';
const { colors } = DEFAULT_THEME;
const mergedTheme = mergeMantineTheme(DEFAULT_THEME, theme);
const resolved = cssVariablesResolver(mergedTheme).light;

describe('getContrastRatio', () => {
  it('gives the WCAG ratios', () => {
    expect(getContrastRatio('#000000', WHITE)).toBeCloseTo(21, 5);
    expect(getContrastRatio(WHITE, WHITE)).toBe(1);
    // Mantine's dimmed grey on white, what the audit found.
    expect(getContrastRatio('#868e96', WHITE)).toBeCloseTo(3.32, 2);
    expect(getContrastRatio('rgba(134, 142, 150, 1)', WHITE)).toBeCloseTo(3.32, 2);
  });
});

describe('darkenToContrast', () => {
  it('keeps a colour that already reads and darkens one that does not, just enough', () => {
    expect(darkenToContrast('#212529', [WHITE])).toBe('#212529');
    const dimmed = darkenToContrast('#868e96', [WHITE]);
    expect(getContrastRatio(dimmed, WHITE)).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    expect(getContrastRatio(dimmed, WHITE)).toBeLessThan(TEXT_CONTRAST + 0.3);
  });
});

describe('theme colours (light mode)', () => {
  it("Mantine's defaults fail AA where the audit found them", () => {
    const defaults = defaultCssVariablesResolver(mergedTheme).light;
    expect(defaults['--mantine-color-dimmed']).toBe('var(--mantine-color-gray-6)');
    expect(getContrastRatio(colors.gray[6], WHITE)).toBeLessThan(TEXT_CONTRAST);
    expect(getContrastRatio(colors.teal[9], colors.teal[1])).toBeLessThan(TEXT_CONTRAST);
  });

  it('dimmed, placeholder, error and link text reach 4.5:1 on white and the grey page', () => {
    for (const name of ['dimmed', 'placeholder', 'error', 'anchor'])
      for (const background of [WHITE, colors.gray[0]])
        expect(getContrastRatio(resolved[`--mantine-color-${name}`]!, background), `${name} on ${background}`).toBeGreaterThanOrEqual(
          TEXT_CONTRAST,
        );
  });

  it('links read on the tint of every light alert', () => {
    for (const [name, shades] of Object.entries(colors))
      if (name !== 'dark')
        expect(getContrastRatio(resolved['--mantine-color-anchor']!, shades[1]), name).toBeGreaterThanOrEqual(TEXT_CONTRAST);
  });

  it("every colour's light variant text reaches 4.5:1 on its tint, and its text and outline on white", () => {
    for (const [name, shades] of Object.entries(colors)) {
      if (name === 'dark') continue;
      expect(getContrastRatio(resolved[`--mantine-color-${name}-light-color`]!, shades[1]), `${name} light`).toBeGreaterThanOrEqual(
        TEXT_CONTRAST,
      );
      expect(getContrastRatio(resolved[`--mantine-color-${name}-text`]!, WHITE), `${name} text`).toBeGreaterThanOrEqual(TEXT_CONTRAST);
      expect(getContrastRatio(resolved[`--mantine-color-${name}-outline`]!, WHITE), `${name} outline`).toBeGreaterThanOrEqual(
        TEXT_CONTRAST,
      );
    }
  });

  it('a colour added to the palette is held to the same bar', () => {
    const pale = ['#f0fff4', '#d3f9d8', '#b2f2bb', '#8ce99a', '#69db7c', '#51cf66', '#40c057', '#37b24d', '#2f9e44', '#2b8a3e'] as const;
    const variables = findReadableColours({ ...colors, moss: pale });
    expect(getContrastRatio(variables['--mantine-color-moss-light-color']!, pale[1])).toBeGreaterThanOrEqual(TEXT_CONTRAST);
  });
});
