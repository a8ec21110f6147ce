import { createTheme } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'teal',
  // teal.8 and darker keep white button text above WCAG AA contrast (teal.6 is about 2.5:1).
  primaryShade: { light: 9, dark: 7 },
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  defaultRadius: 'md',
});
