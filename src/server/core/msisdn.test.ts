import { describe, expect, it } from 'vitest';
import { APP_COUNTRIES } from '../../shared/api/apps.schema';
import { COUNTRY_CALLING_CODES, normalizeMsisdn, toE164 } from './msisdn';

describe('toE164', () => {
  it.each([
    ['233241234567', 'ghana', '+233241234567'],
    ['+233241234567', 'ghana', '+233241234567'],
    ['+233 24 123 4567', null, '+233241234567'],
    ['+233-24-123-4567', null, '+233241234567'],
    ['(024) 123-4567', 'ghana', '+233241234567'],
    ['0241234567', 'ghana', '+233241234567'],
    ['024 123 4567', 'ghana', '+233241234567'],
    ['241234567', 'ghana', '+233241234567'],
    ['00233241234567', null, '+233241234567'],
    ['tel:+233241234567', null, '+233241234567'],
    ['233241234567@s.whatsapp.net', null, '+233241234567'],
    ['233241234567:12@s.whatsapp.net', null, '+233241234567'],
    ['233241234567@c.us', null, '+233241234567'],
    ['08031234567', 'nigeria', '+2348031234567'],
    ['2348031234567', 'ghana', '+2348031234567'],
    ['0712345678', 'kenya', '+254712345678'],
    ['0821234567', 'south-africa', '+27821234567'],
    ['0821234567', '27', '+27821234567'],
    ['0821234567', '+27', '+27821234567'],
    ['  +233241234567 ', null, '+233241234567'],
    ['254712345678', null, '+254712345678'],
  ])('%s (%s) -> %s', (value, country, expected) => {
    expect(toE164(value, country)).toBe(expected);
  });

  it.each([
    ['', 'ghana'],
    ['hello', 'ghana'],
    ['0241234567', null],
    ['241234567', null],
    ['+0241234567', null],
    ['+23324123456789012', null],
    ['+233', null],
    ['12345', 'ghana'],
    ['++233241234567', null],
    ['233241234567@g.us', null],
    ['120363025@broadcast', null],
    ['1234567890@lid', null],
    ['abc@s.whatsapp.net', null],
    ['+233 24 123 4567 ext 5', null],
    ['0241234567', 'atlantis'],
    ['1'.repeat(80), null],
  ])('refuses %j (%s)', (value, country) => {
    expect(toE164(value, country)).toBeNull();
  });

  it('knows the calling code of every app country', () => {
    for (const country of APP_COUNTRIES) expect(COUNTRY_CALLING_CODES[country], country).toMatch(/^[1-9]\d{0,3}$/);
  });
});

describe('normalizeMsisdn', () => {
  it('keeps its own rule', () => {
    expect(normalizeMsisdn('+233 20-123 4567')).toBe('+233201234567');
    expect(normalizeMsisdn('abc')).toBeNull();
  });
});
