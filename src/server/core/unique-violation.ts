/**
 * True when `err` (or an error it wraps: drizzle wraps the driver's) is the database refusing a row that a unique
 * index named `constraint` already holds: a write that lost a race, turned by its caller into the rule's message.
 */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, constraint: named, message } = e as { code?: string; constraint?: string; message?: string };
    if (code === '23505' && (named === constraint || message?.includes(constraint))) return true;
  }
  return false;
}
