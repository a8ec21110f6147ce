/**
 * The caller's contact inside a hop (docs/contacts.md). The runtime loads it once a session and passes it in the
 * hop (`Hop.contact`); the state keeps it for later hops; what a hop sets goes back to the runtime as
 * `HopResult.contactChanges`, which it writes with the session's records. The engine reads and writes nothing else.
 */
import type { HopContext } from './context';
import type { RuleConsent } from '../shared/app';
import type { ContactChanges, ContactFields } from './types';

const NO_CONTACT: ContactFields = { name: null, language: null, attributes: {} };

/** A menu's `saveToContact`: the input becomes the contact's name or one of its attributes, for this hop's screens too. */
export function saveToContact(ctx: HopContext, field: string, value: string): void {
  const contact = ctx.state.contact ?? NO_CONTACT;
  ctx.contactChanges ??= {};
  const changes = ctx.contactChanges;
  // A new object: the state the caller handed in (continueSession copies it shallowly) is never changed in place.
  if (field === 'name') {
    ctx.state.contact = { ...contact, name: value };
    changes.name = value;
  } else {
    ctx.state.contact = { ...contact, attributes: { ...contact.attributes, [field]: value } };
    changes.attributes = { ...changes.attributes, [field]: value };
  }
}

/** A field of the session's contact as a rule reads it: `name`, `language` or an attribute; '' where unknown. */
export function readContactField(contact: ContactFields | undefined, field: string): string {
  if (!contact) return '';
  if (field === 'name') return contact.name ?? '';
  if (field === 'language') return contact.language ?? '';
  return contact.attributes[field] ?? '';
}

/** A script's `contact.set` calls (the runner checked them as the API does): each is kept as a menu's save is. */
export function applyContactChanges(ctx: HopContext, changes: ContactChanges): void {
  if (typeof changes.name === 'string') saveToContact(ctx, 'name', changes.name);
  for (const [key, value] of Object.entries(changes.attributes ?? {}))
    if (key !== 'name' && key !== 'language' && typeof value === 'string') saveToContact(ctx, key, value);
}

/** A rule's `consent`: the caller's opt in or out of a channel, recorded by the runtime with the menu's name. */
export function recordConsent(ctx: HopContext, consent: RuleConsent, menu: string): void {
  ctx.contactChanges ??= {};
  ctx.contactChanges.consent = { ...ctx.contactChanges.consent, [consent.channel]: { status: consent.status, menu } };
}
