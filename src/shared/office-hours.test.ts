import { describe, expect, it } from 'vitest';
import {
  COUNTRY_TIME_ZONES,
  DEFAULT_CLOSED_CALLBACK_TEXT,
  describeOfficeHours,
  getClosedReply,
  isOpenAt,
  OFFICE_HOURS_MESSAGES,
  type OfficeHours,
  officeHoursSchema,
} from './office-hours';
import { APP_COUNTRIES } from './api/apps.schema';

const weekdays = { from: '08:00', to: '17:00' };
const LAGOS: OfficeHours = {
  timeZone: 'Africa/Lagos',
  days: { mon: weekdays, tue: weekdays, wed: weekdays, thu: weekdays, fri: weekdays, sat: { from: '09:00', to: '13:00' } },
  closedReply: { fr: 'Nous sommes fermés ({hours}).' },
};

describe('office hours', () => {
  it("is open within a day's opening in the app's time zone, from inclusive, to exclusive", () => {
    // Monday 30 November 2026; Lagos is UTC+1.
    expect(isOpenAt(LAGOS, new Date('2026-11-30T06:59:00Z'))).toBe(false);
    expect(isOpenAt(LAGOS, new Date('2026-11-30T07:00:00Z'))).toBe(true);
    expect(isOpenAt(LAGOS, new Date('2026-11-30T15:59:00Z'))).toBe(true);
    expect(isOpenAt(LAGOS, new Date('2026-11-30T16:00:00Z'))).toBe(false);
    // Saturday morning, and Sunday (no opening).
    expect(isOpenAt(LAGOS, new Date('2026-11-28T09:30:00Z'))).toBe(true);
    expect(isOpenAt(LAGOS, new Date('2026-11-29T10:00:00Z'))).toBe(false);
    // Sunday 23:30 UTC is Monday 00:30 in Lagos: the local day counts.
    expect(isOpenAt({ ...LAGOS, days: { mon: { from: '00:00', to: '01:00' } } }, new Date('2026-11-29T23:30:00Z'))).toBe(true);
    expect(isOpenAt(null, new Date('2026-11-29T03:00:00Z'))).toBe(true);
  });

  it('describes the openings with runs of days, and fills them into the out-of-hours answer', () => {
    expect(describeOfficeHours(LAGOS)).toBe('Mon-Fri 08:00-17:00, Sat 09:00-13:00');
    expect(describeOfficeHours({ ...LAGOS, days: { mon: weekdays, wed: weekdays } })).toBe('Mon 08:00-17:00, Wed 08:00-17:00');
    expect(getClosedReply(LAGOS, 'fr', 'en', 'whatsapp')).toBe('Nous sommes fermés (Mon-Fri 08:00-17:00, Sat 09:00-13:00).');
    expect(getClosedReply(LAGOS, 'ha', 'fr', 'whatsapp')).toBe('Nous sommes fermés (Mon-Fri 08:00-17:00, Sat 09:00-13:00).');
    // A single-language app has no language: the first answer written.
    expect(getClosedReply(LAGOS, null, null, 'whatsapp')).toBe('Nous sommes fermés (Mon-Fri 08:00-17:00, Sat 09:00-13:00).');
    expect(getClosedReply({ ...LAGOS, closedReply: {} }, 'en', null, 'ussd')).toBe(
      DEFAULT_CLOSED_CALLBACK_TEXT.replace('{hours}', 'Mon-Fri 08:00-17:00, Sat 09:00-13:00'),
    );
  });

  it('refuses a bad time zone, a bad time, a closing before the opening, and no day open, with clear messages', () => {
    const messages = (value: unknown) => officeHoursSchema.safeParse(value).error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(messages({ ...LAGOS, timeZone: 'Mars/Olympus' })).toEqual([['timeZone', OFFICE_HOURS_MESSAGES.timeZone]]);
    expect(messages({ ...LAGOS, days: { mon: { from: '8am', to: '17:00' } } })).toEqual([['days.mon.from', OFFICE_HOURS_MESSAGES.time]]);
    expect(messages({ ...LAGOS, days: { mon: { from: '17:00', to: '08:00' } } })).toEqual([['days.mon.to', OFFICE_HOURS_MESSAGES.order]]);
    expect(messages({ ...LAGOS, days: {} })).toEqual([['days', OFFICE_HOURS_MESSAGES.noDay]]);
    expect(officeHoursSchema.parse(LAGOS)).toEqual(LAGOS);
  });

  it('every country an app can have has a time zone this runtime knows', () => {
    for (const country of APP_COUNTRIES)
      expect(officeHoursSchema.shape.timeZone.safeParse(COUNTRY_TIME_ZONES[country]).success, country).toBe(true);
  });
});
