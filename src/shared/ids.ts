/**
 * Ids as the database stores them. A value that cannot be an id never reaches a query: it is answered like
 * an id that does not exist (404), so a malformed id tells a caller no more than another account's id does.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `true` for `0c6f3e4e-6c1a-4b5e-9d7a-2f1f1b8d2a10`, `false` for `zz`, `''` or `1e308`. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
