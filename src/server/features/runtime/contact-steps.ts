/**
 * The hop's contact steps (docs/contacts.md): `readContact` before the engine runs, `recordContact` with what the hop
 * leaves (hop-steps.ts runs both). The engine never reads or writes the contacts table itself.
 */
import type { ContactChanges, Hop, HopResult } from '../../../engine';
import type { ContactConsentMap } from '../../../shared/contact-consent';
import { toE164 } from '../../core/msisdn';
import type { HopEnv, RunnableApp } from './hop-env';
import type { StoredSession } from './runtime-types';

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
 * What a hop leaves on its caller's contact, with the session's records: seen on the app's channel when the
 * session starts (which creates the contact), and what its inputs and rules set (HopResult.contactChanges).
 */
export function recordContact(
  env: HopEnv,
  version: RunnableApp,
  run: { stored: StoredSession | undefined; result: HopResult; contactMsisdn: string | undefined },
): void {
  const { stored, result, contactMsisdn } = run;
  const isFirstHop = !(stored && !stored.state.ended && stored.state.sessionId === result.state.sessionId);
  if (!contactMsisdn || (!isFirstHop && !result.contactChanges)) return;
  const { consent, ...fields } = result.contactChanges ?? {};
  env.records.recordContact({
    ownerId: version.ownerId,
    msisdn: contactMsisdn,
    ...(isFirstHop ? { seen: { channel: version.compiled.app.channel, at: new Date(result.state.startedAt).toISOString() } } : {}),
    ...fields,
    ...(consent ? { consent: toStoredConsent(consent, new Date(result.state.lastHopAt).toISOString()) } : {}),
  });
}
