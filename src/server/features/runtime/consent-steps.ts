/**
 * Consent keywords on WhatsApp (docs/contacts.md, "Consent"): STOP and the bot's own opt-out words opt the person
 * out of `whatsapp`, START and its opt-in words opt them back in. The message is answered once per change, with
 * the bot's sentence in the word's language (or the default sentence), and the bot does not run on it.
 */
import { toE164 } from '../../core/msisdn';
import { changeConsent } from '../../core/contact-records';
import { getConsentReply, readConsentKeyword } from '../../../shared/contact-consent';
import type { ChatMessage } from '../../../shared/whatsapp';
import type { HopEnv } from './hop-env';
import type { LoadedApp } from '../../core/caches';

/** What a consent keyword gets: the sentence to answer with, or null when it changed nothing (already so). */
export type KeywordAnswer = { text: string | null };

/**
 * Step, before a message's hop: a consent keyword is written on the sender's contact and answered here; any other
 * message (undefined) goes on to the bot. The write is the message's one statement, made only for a keyword: it
 * reads and changes the status together, so the answer goes once per change whatever arrives at the same time.
 */
export async function answerConsentKeyword(env: HopEnv, loaded: LoadedApp, message: ChatMessage): Promise<KeywordAnswer | undefined> {
  if ('missing' in loaded || loaded.isTemplate || message.kind !== 'text') return undefined;
  const keyword = readConsentKeyword(message.text, loaded.consentKeywords);
  if (!keyword) return undefined;
  const msisdn = toE164(message.from, loaded.country);
  if (!msisdn) return undefined;
  const at = new Date(env.now()).toISOString();
  const changed = await changeConsent(env.ctx.db, { ownerId: loaded.ownerId, msisdn }, 'whatsapp', {
    status: keyword.status,
    at,
    source: 'keyword',
    detail: keyword.word,
  });
  if (!changed) return { text: null };
  const fallback = loaded.compiled.app.languages?.defaultLanguage ?? null;
  return { text: getConsentReply(keyword, loaded.consentKeywords, loaded.appName, fallback) };
}
