/**
 * Handing a WhatsApp conversation to a person (docs/inbox.md), the runtime's steps. Before a linked number's message
 * reaches the bot: a conversation open with the agents takes it (the bot does not run), and one of the bot's handoff
 * words ends the open session and opens a conversation. After the hop: a rule's handoff opens one. The inbox does
 * the storing (core/inbox-handoffs.ts); these steps only decide.
 */
import { toE164 } from '../../core/msisdn';
import type { ChatHandoffs, HandoffTarget } from '../../core/inbox-handoffs';
import type { LoadedApp } from '../../core/caches';
import { getHandoffReply, readHandoffKeyword } from '../../../shared/inbox';
import type { ChatMessage } from '../../../shared/whatsapp';
import type { HopEnv } from './hop-env';

/** Whose conversation a linked number's message is (null: a template, a draft, a sender with no valid number). */
export function toHandoffTarget(loaded: LoadedApp, appId: string, message: ChatMessage): HandoffTarget | null {
  if ('missing' in loaded || loaded.isTemplate) return null;
  const msisdn = toE164(`+${message.from}`);
  return msisdn === null ? null : { ownerId: loaded.ownerId, appId, linkId: message.linkId, msisdn };
}

/**
 * Step: one of the bot's handoff words. The open session (if any) ends, recorded as abandoned, its inputs going to
 * the conversation; the customer gets the bot's handoff answer. Undefined: not a handoff word.
 */
export async function answerHandoffKeyword(
  env: HopEnv,
  handoffs: ChatHandoffs,
  loaded: LoadedApp,
  target: HandoffTarget,
  key: string,
  message: ChatMessage,
): Promise<string | undefined> {
  if ('missing' in loaded || message.kind !== 'text') return undefined;
  const word = readHandoffKeyword(message.text, loaded.handoffKeywords);
  if (!word) return undefined;
  const stored = await env.deps.sessions.get(key);
  const open = stored && !stored.state.ended ? stored : undefined;
  if (stored) await env.deps.sessions.delete(key, target.appId);
  if (open)
    env.records.recordSession(open.state, 'abandoned', open.state.currentMenuId, open.caller ?? null, undefined, open.contactMsisdn);
  const fallback = loaded.compiled.app.languages?.defaultLanguage ?? null;
  const text = getHandoffReply(loaded.handoffKeywords, word.language, fallback);
  await handoffs.openConversation({
    ...target,
    reason: `keyword: ${word.word}`,
    inputs: { ...(open?.state.inputs ?? {}) },
    customerText: message.text,
    botText: text,
  });
  return text;
}
