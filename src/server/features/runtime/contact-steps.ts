/**
 * The hop's contact steps (docs/contacts.md): `readContact` before the engine runs, `recordContact` with what the hop
 * leaves (hop-steps.ts runs both; a session that ends otherwise writes what it kept: session-records.ts). The
 * engine never reads or writes the contacts table itself.
 */
import type { ContactChanges, Hop, HopResult } from '../../../engine';
import type { ContactConsentMap } from '../../../shared/contact-consent';
import { foldContactRecord, type ContactRecord } from '../../core/contact-records';
import { toE164 } from '../../core/msisdn';
import type { HopEnv, RunnableApp } from './hop-env';
import type { PendingContact, StoredSession } from './runtime-types';

/** A contact not stored yet, as a session sees it. */
const NEW_CONTACT = { name: null, language: null, attributes: {} };

/**
 * Step: the caller's contact (docs/contacts.md): its number in E.164 form, worked out on the session's first hop
 * and kept with the session; and, for an app that reads contact fields, the contact itself, read once a session
 * and handed to the engine in the hop (the session's state keeps it, so later hops read nothing). Featured
 * templates and numbers that are no phone number have no contact.
 */
export async function readContact(
  env: HopEnv,
  version: RunnableApp,
  engineHop: Hop,
  stored: StoredSession | undefined,
): Promise<string | undefined> {
  if (version.isTemplate) return undefined;
  const open = stored && !stored.state.ended ? stored : undefined;
  const msisdn = open?.contactMsisdn ?? toE164(engineHop.msisdn, version.country) ?? undefined;
  if (msisdn === undefined || !version.compiled.usesContact || open?.state.contact || !env.deps.readContact) return msisdn;
  engineHop.contact = (await env.deps.readContact(version.ownerId, msisdn)) ?? NEW_CONTACT;
  return msisdn;
}

/** A hop's consents (its rules' `consent`) as stored: at the hop's time, source `menu`, the menu's name. */
function toStoredConsent(consent: NonNullable<ContactChanges['consent']>, at: string): ContactConsentMap {
  const stored: ContactConsentMap = {};
  for (const [channel, given] of Object.entries(consent) as [keyof ContactConsentMap, { status: 'in' | 'out'; menu: string }][])
    stored[channel] = { status: given.status, at, source: 'menu', detail: given.menu };
  return stored;
}

/**
 * How long a session keeps what it leaves on its contact before a hop writes it (docs/contacts.md, "Written once
 * a session"): a USSD session ends well within it and writes its contact once, at its end; a WhatsApp conversation
 * may last hours, and its contact is written at its first hop this long after the last write, so a new contact
 * shows in the console within about a minute of activity rather than when the conversation ends.
 */
export const CONTACT_WRITE_SECONDS = 60;

/**
 * What a hop leaves on its caller's contact: seen on the app's channel when the session starts (which creates the
 * contact), and what its inputs and rules set (HopResult.contactChanges), folded into the record the session keeps
 * (StoredSession.pendingContact). The record is written (pushed to the event sink, with the session's records) when
 * the session ends, when a rule changed consent (an opt out must stop sends at once), or when it began
 * CONTACT_WRITE_SECONDS or more ago; else it is returned, for the session to keep until then.
 */
export function recordContact(
  env: HopEnv,
  version: RunnableApp,
  run: { stored: StoredSession | undefined; result: HopResult; contactMsisdn: string | undefined },
): PendingContact | undefined {
  const { stored, result, contactMsisdn } = run;
  const open = stored && !stored.state.ended ? stored : undefined;
  const isFirstHop = open?.state.sessionId !== result.state.sessionId;
  // Another session's record on the same key (never expected: a session goes on under its own id) is not lost.
  if (isFirstHop && open?.pendingContact) env.records.recordContact(open.pendingContact.record);
  let pending = isFirstHop ? undefined : open?.pendingContact;
  if (contactMsisdn && (isFirstHop || result.contactChanges)) {
    const { consent, ...fields } = result.contactChanges ?? {};
    const record: ContactRecord = {
      ownerId: version.ownerId,
      msisdn: contactMsisdn,
      ...(isFirstHop ? { seen: { channel: version.compiled.app.channel, at: new Date(result.state.startedAt).toISOString() } } : {}),
      ...fields,
      ...(consent ? { consent: toStoredConsent(consent, new Date(result.state.lastHopAt).toISOString()) } : {}),
    };
    pending = pending
      ? { since: pending.since, record: foldContactRecord(pending.record, record) }
      : { since: result.state.lastHopAt, record };
  }
  if (!pending) return undefined;
  const isDue =
    result.reply.end || !!result.contactChanges?.consent || result.state.lastHopAt - pending.since >= CONTACT_WRITE_SECONDS * 1000;
  if (!isDue) return pending;
  env.records.recordContact(pending.record);
  return undefined;
}
