/** `+233 20-123 4567` -> `+233201234567`; answers null when it is not 7 to 15 digits with an optional +. */
export function normalizeMsisdn(value: string): string | null {
  const compact = value.trim().replace(/[\s\-().]/g, '');
  return /^\+?\d{7,15}$/.test(compact) ? compact : null;
}
