import { describe, expect, it } from 'vitest';
import type { ContactConsent } from '../../shared/contact-consent';
import { checkConsent } from './consent';

const msisdn = '+233241234567';
const at = '2026-11-29T08:40:00.000Z';
const given = (consent: Omit<ContactConsent, 'at'>): ContactConsent => ({ ...consent, at });

describe('checkConsent', () => {
  it('lets a send go to a channel the contact opted in to', () => {
    expect(checkConsent({ msisdn, consent: { whatsapp: given({ status: 'in', source: 'menu', detail: 'Join' }) } }, 'whatsapp')).toEqual({
      allowed: true,
    });
  });

  it('refuses a channel never opted in to, naming it, even when another channel is opted in', () => {
    const consent = { whatsapp: given({ status: 'in', source: 'keyword', detail: 'start' }) };
    expect(checkConsent({ msisdn, consent }, 'sms')).toEqual({ allowed: false, reason: '+233241234567 never opted in to SMS' });
    expect(checkConsent({ msisdn, consent: null }, 'whatsapp')).toEqual({
      allowed: false,
      reason: '+233241234567 never opted in to WhatsApp',
    });
  });

  it.each([
    [{ source: 'keyword', detail: 'stop' }, '+233241234567 opted out of WhatsApp on 2026-11-29 (STOP)'],
    [{ source: 'menu', detail: 'Preferences' }, '+233241234567 opted out of WhatsApp on 2026-11-29 (menu Preferences)'],
    [{ source: 'import', detail: 'fair sign-up sheet' }, '+233241234567 opted out of WhatsApp on 2026-11-29 (import: fair sign-up sheet)'],
    [{ source: 'api', detail: 'crm key' }, '+233241234567 opted out of WhatsApp on 2026-11-29 (the API: crm key)'],
    [{ source: 'console', detail: null }, '+233241234567 opted out of WhatsApp on 2026-11-29 (the console)'],
  ] as const)('refuses an opt out with when and how (%o)', (how, reason) => {
    const consent = { whatsapp: given({ status: 'out', ...how }) };
    expect(checkConsent({ msisdn, consent }, 'whatsapp')).toEqual({ allowed: false, reason });
  });
});
