import { Anchor, type CSSVariablesResolver, createTheme, Drawer, Input, Modal, type MantineColorsTuple, Notification } from '@mantine/core';
import { darkenToContrast } from './lib/contrast';
import classes from './theme.module.css';

const PRIMARY_COLOR = 'teal';
const WHITE = '#ffffff';

/**
 * Light-mode colours that every screen reads, each made to reach WCAG AA's 4.5:1 on what it sits on
 * (docs/accessibility.md). Mantine's own pass for none of them: dimmed text (gray.6, 3.3:1 on white), the
 * placeholder (gray.5, 2.1:1), the error text (red.6, 3.3:1), and the light variant's text on its tint (teal.9
 * on teal.1, 4.3:1: badges, light buttons, the sidebar's active entry, alerts). The resolver computes them
 * from the palette, so a colour added later is held to the same bar.
 */
export function findReadableColours(colors: Record<string, MantineColorsTuple>): Record<string, string> {
  const gray = colors.gray!;
  const tints = Object.entries(colors)
    .filter(([name]) => name !== 'dark')
    .map(([, shades]) => shades[1]);
  const variables: Record<string, string> = {
    // Dimmed text sits on white cards, the grey page (gray.0) and grey panels (gray.1).
    '--mantine-color-dimmed': darkenToContrast(gray[6], [WHITE, gray[0], gray[1]]),
    '--mantine-color-placeholder': darkenToContrast(gray[5], [WHITE, gray[0]]),
    '--mantine-color-error': darkenToContrast(colors.red![6], [WHITE, colors.red![0]]),
    // Links sit in text and in alerts of any colour.
    '--mantine-color-anchor': darkenToContrast(colors[PRIMARY_COLOR]![9], [WHITE, gray[0], ...tints]),
  };
  for (const [name, shades] of Object.entries(colors)) {
    if (name === 'dark') continue;
    // The light variant: text of shade 9 on a shade 1 tint.
    variables[`--mantine-color-${name}-light-color`] = darkenToContrast(shades[9], [shades[1]]);
    // c="red", the outline variant: shade 9 on white or the grey page.
    const onPage = darkenToContrast(shades[9], [WHITE, gray[0]]);
    variables[`--mantine-color-${name}-text`] = onPage;
    variables[`--mantine-color-${name}-outline`] = onPage;
  }
  return variables;
}

/** Given to MantineProvider beside the theme (main.tsx). */
export const cssVariablesResolver: CSSVariablesResolver = (theme) => ({
  variables: {},
  light: findReadableColours(theme.colors),
  dark: {},
});

export const theme = createTheme({
  primaryColor: PRIMARY_COLOR,
  // teal.8 and darker keep white button text above WCAG AA contrast (teal.6 is about 2.5:1).
  primaryShade: { light: 9, dark: 7 },
  // Filled buttons and badges of light colours (yellow, orange) get dark text instead of white.
  autoContrast: true,
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  defaultRadius: 'md',
  components: {
    Input: Input.extend({ classNames: { input: classes.input } }),
    // A link in a sentence must not be told apart by colour alone.
    Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }),
    // Mantine's close buttons are icons without a name.
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } }),
    Drawer: Drawer.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close panel' } } }),
    // A message's grey words are Mantine's gray.6 (3.3:1 on white): the readable dimmed instead.
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close message' } },
      classNames: { description: classes.notificationDescription },
    }),
  },
});
