/** A JSON object (not an array, not null): what a parsed document's `{ ... }` is. */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
