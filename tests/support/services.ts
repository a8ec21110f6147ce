/**
 * Test tiers that need a service (PostgreSQL, Redis, Chromium) run when it is reachable and say loudly when
 * they are skipped. With REQUIRE_SERVICES=1 (CI) a missing service fails the run instead.
 */
export const isServiceRequired = process.env.REQUIRE_SERVICES === '1' || process.env.REQUIRE_SERVICES === 'true';

export function reportMissingService(tier: string, reason: string): void {
  const line = `\n*** SKIPPED: ${tier}: ${reason} ***\n`;
  if (isServiceRequired) throw new Error(`${tier} cannot run: ${reason} (REQUIRE_SERVICES=1)`);
  console.warn(line);
}
