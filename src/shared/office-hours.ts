/**
 * An app's office hours (docs/inbox.md, "Office hours"): when its agents answer. A handoff outside them still opens
 * the conversation (or the callback request), but the customer is told when the team is back instead of "a person
 * will reply shortly". One opening a day at most, in the app's time zone; a day left out is closed.
 */
import { z } from 'zod';
import { languageRecord } from './app/languages';
import type { InboxChannel } from './inbox';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const WEEKDAY_LABELS: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

/** The time zone an app's office hours start with: its country's. */
export const COUNTRY_TIME_ZONES: Record<string, string> = {
  ghana: 'Africa/Accra',
  nigeria: 'Africa/Lagos',
  swaziland: 'Africa/Mbabane',
  kenya: 'Africa/Nairobi',
  'sierra-leone': 'Africa/Freetown',
  rwanda: 'Africa/Kigali',
  liberia: 'Africa/Monrovia',
  gabon: 'Africa/Libreville',
  guinea: 'Africa/Conakry',
  gambia: 'Africa/Banjul',
  malawi: 'Africa/Blantyre',
  burundi: 'Africa/Bujumbura',
  mauritius: 'Indian/Mauritius',
  eritrea: 'Africa/Asmara',
  'dr-congo': 'Africa/Kinshasa',
  niger: 'Africa/Niamey',
  tunisia: 'Africa/Tunis',
  algeria: 'Africa/Algiers',
  'south-africa': 'Africa/Johannesburg',
  'cape-verde': 'Atlantic/Cape_Verde',
  'ivory-coast': 'Africa/Abidjan',
  togo: 'Africa/Lome',
  lesotho: 'Africa/Maseru',
  morocco: 'Africa/Casablanca',
  zimbabwe: 'Africa/Harare',
  namibia: 'Africa/Windhoek',
  chad: 'Africa/Ndjamena',
  seychelles: 'Indian/Mahe',
  'equitorial-guinea': 'Africa/Malabo',
};

export const OFFICE_HOURS_MESSAGES = {
  timeZone: 'Pick a time zone',
  time: 'Enter a time as HH:MM, e.g. 08:00',
  order: 'The closing time must be after the opening time',
  noDay: 'Open at least one day, or turn office hours off',
  reply: 'An out-of-hours answer is at most 1,000 characters',
} as const;

/** Sent on a handoff outside office hours when the builder wrote nothing; `{hours}` is the opening times. */
export const DEFAULT_CLOSED_TEXT = 'Thank you. Our team is away now ({hours}): a person will reply to you here when we are back.';
/** The same on USSD, where a handoff is a callback request. */
export const DEFAULT_CLOSED_CALLBACK_TEXT = 'Thank you. Our team is away now ({hours}): a person will call you back when we are back.';

export const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};
export const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const time = z.string().regex(TIME, OFFICE_HOURS_MESSAGES.time);
// Compared only once both are times: a bad time gets its own message alone.
const opening = z
  .object({ from: time, to: time })
  .refine((o) => !TIME.test(o.from) || !TIME.test(o.to) || o.from < o.to, { message: OFFICE_HOURS_MESSAGES.order, path: ['to'] });

export const officeHoursSchema = z
  .object({
    timeZone: z.string().trim().min(1, OFFICE_HOURS_MESSAGES.timeZone).max(64).refine(isTimeZone, OFFICE_HOURS_MESSAGES.timeZone),
    days: z.object(Object.fromEntries(WEEKDAYS.map((day) => [day, opening.optional()])) as Record<Weekday, z.ZodOptional<typeof opening>>),
    /** The answer out of hours, per language; `{hours}` is replaced by the opening times. */
    closedReply: languageRecord(z.string().trim().max(1000, OFFICE_HOURS_MESSAGES.reply)).default({}),
  })
  .refine((hours) => WEEKDAYS.some((day) => hours.days[day]), { message: OFFICE_HOURS_MESSAGES.noDay, path: ['days'] });
export type OfficeHours = z.infer<typeof officeHoursSchema>;

/** The weekday and time of day `now` is in `timeZone`: `{ day: 'mon', time: '08:05' }`. */
export function readLocalTime(now: Date, timeZone: string): { day: Weekday; time: string } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { day: part('weekday').slice(0, 3).toLowerCase() as Weekday, time: `${part('hour')}:${part('minute')}` };
}

/**
 * Whether the team is in at `now`: always without office hours; else within the day's opening (from inclusive, to
 * exclusive) in the app's time zone.
 * @example isOpenAt({ timeZone: 'Africa/Accra', days: { mon: { from: '08:00', to: '17:00' } }, closedReply: {} }, new Date('2026-11-30T09:00:00Z')) // true
 */
export function isOpenAt(hours: OfficeHours | null, now: Date): boolean {
  if (!hours) return true;
  const local = readLocalTime(now, hours.timeZone);
  const opening = hours.days[local.day];
  return opening !== undefined && local.time >= opening.from && local.time < opening.to;
}

/**
 * The opening times in a line, days with the same hours run together: "Mon-Fri 08:00-17:00, Sat 09:00-13:00".
 */
export function describeOfficeHours(hours: OfficeHours): string {
  const runs: Array<{ first: Weekday; last: Weekday; hours: string }> = [];
  for (const day of WEEKDAYS) {
    const opening = hours.days[day];
    const text = opening ? `${opening.from}-${opening.to}` : null;
    const previous = runs.at(-1);
    const isNext = previous && WEEKDAYS.indexOf(previous.last) === WEEKDAYS.indexOf(day) - 1;
    if (text && previous && isNext && previous.hours === text) previous.last = day;
    else if (text) runs.push({ first: day, last: day, hours: text });
  }
  const short = (day: Weekday) => WEEKDAY_LABELS[day].slice(0, 3);
  return runs.map((run) => `${short(run.first)}${run.first === run.last ? '' : `-${short(run.last)}`} ${run.hours}`).join(', ');
}

/**
 * The out-of-hours answer: the builder's in the language, else the default language's, else the first they wrote,
 * else the default for the channel; `{hours}` filled in.
 */
export function getClosedReply(hours: OfficeHours, language: string | null, fallback: string | null, channel: InboxChannel): string {
  const reply = hours.closedReply;
  const text =
    (language && reply[language]?.trim()) ||
    (fallback && reply[fallback]?.trim()) ||
    Object.values(reply).find((text) => text.trim()) ||
    (channel === 'ussd' ? DEFAULT_CLOSED_CALLBACK_TEXT : DEFAULT_CLOSED_TEXT);
  return text.replaceAll('{hours}', describeOfficeHours(hours));
}
