/**
 * A wall-clock time typed in a campaign's time zone ("2026-12-01T09:30" in Africa/Lagos) as the instant it names,
 * in ISO form for the schedule call; null when the text is no time or the zone unknown. A time a clock change skips
 * comes out an hour later, one it repeats as its first occurrence.
 */
export function zonedTimeToIso(local: string, timeZone: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!match) return null;
  const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
  const asUtc = Date.UTC(y, mo - 1, d, h, mi);
  try {
    // The zone's offset at the guess, then again at the result: right on both sides of a clock change.
    const first = asUtc - offsetOf(asUtc, timeZone);
    const second = asUtc - offsetOf(first, timeZone);
    return new Date(second).toISOString();
  } catch {
    return null;
  }
}

/** How far the zone's clock is ahead of UTC at an instant, in milliseconds. */
function offsetOf(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return wall - Math.floor(instant / 1000) * 1000;
}

/** An instant as the zone's wall clock, "2026-12-01T09:30", for a datetime-local field. */
export function isoToZonedTime(iso: string, timeZone: string): string {
  const instant = new Date(iso).getTime();
  return new Date(instant + offsetOf(instant, timeZone)).toISOString().slice(0, 16);
}
