import { darken, luminance } from '@mantine/core';

/** WCAG 2 AA: body text needs 4.5:1 against what is behind it; large text and the parts of controls 3:1. */
export const TEXT_CONTRAST = 4.5;
export const LARGE_TEXT_CONTRAST = 3;

/** The WCAG 2 contrast ratio of two colours (any CSS colour Mantine parses: hex, rgb, rgba), from 1 to 21. */
export function getContrastRatio(foreground: string, background: string): number {
  const [lighter, darker] = [luminance(foreground), luminance(background)].sort((a, b) => b - a) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

/**
 * The colour itself when it already reaches the ratio on every background given, else the colour darkened in
 * small steps until it does: the closest readable shade of the same hue, e.g. teal.9 (#087f5b, 4.33:1 on teal.1)
 * becomes a slightly deeper teal that reaches 4.5:1.
 */
export function darkenToContrast(colour: string, backgrounds: string[], ratio = TEXT_CONTRAST): string {
  const isReadable = (candidate: string) => backgrounds.every((background) => getContrastRatio(candidate, background) >= ratio);
  for (let step = 0; step <= 100; step += 1) {
    const candidate = step === 0 ? colour : darken(colour, step / 100);
    if (isReadable(candidate)) return candidate;
  }
  throw new Error(`no shade of ${colour} reaches ${ratio}:1 on ${backgrounds.join(', ')}`);
}
