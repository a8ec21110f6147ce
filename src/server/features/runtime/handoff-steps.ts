/**
 * Handing a WhatsApp conversation to a person (docs/inbox.md), the runtime's steps. Before a linked number's message
 * reaches the bot: a conversation open with the agents takes it (the bot does not run), and one of the bot's handoff
 * words ends the open session and opens a conversation. After the hop: a rule's handoff opens one. The inbox does
 * the storing (core/inbox-handoffs.ts); these steps only decide.
 */
import { toE164 } from '../../core/msisdn';
import type { ChatHandoffs, Handoff, HandoffTarget } from '../../core/inbox-handoffs';
import type { LoadedApp } from '../../core/caches';
import {
  CALLBACK_FAILED_TEXT,
  DEFAULT_CALLBACK_TEXT,
  getHandoffReply,
  HANDOFF_FAILED_TEXT,
  INBOX_UNAVAILABLE_TEXT,
  type InboxChannel,
  readHandoffKeyword,
  WHATSAPP_NUMBER_PLACEHOLDER,
} from '../../../shared/inbox';
import { getClosedReply, isOpenAt } from '../../../shared/office-hours';
import type { ChatMessage } from '../../../shared/whatsapp';
import type { HopEnv } from './hop-env';
import type { HopAnswer, HopRequest } from './hop-steps';
import { toSessionEnd } from './session-records';

/** Whose conversation a linked number's message is (null: a template, a draft, a sender with no valid number). */
export function toHandoffTarget(loaded: LoadedApp, appId: string, message: ChatMessage): HandoffTarget | null {
  if ('missing' in loaded || loaded.isTemplate) return null;
  const msisdn = toE164(`+${message.from}`);
  return msisdn === null ? null : { ownerId: loaded.ownerId, appId, channel: 'whatsapp', linkId: message.linkId, msisdn };
}

/**
 * Step: a conversation open with the agents takes the message: the sentence to answer with ('' when held, no
 * answer), or undefined when none is open and the bot goes on. The inbox not answering (the database) gets
 * INBOX_UNAVAILABLE_TEXT: whether a person has the conversation is unknown, so the bot must not answer it.
 */
export async function holdForAgents(
  env: HopEnv,
  handoffs: ChatHandoffs,
  target: HandoffTarget,
  message: ChatMessage,
): Promise<string | undefined> {
  try {
    return (await handoffs.holdMessage(target, message)) ? '' : undefined;
  } catch (err) {
    env.ctx.log.error({ err, appId: target.appId }, 'the inbox could not be read for a message; the sender was asked to send it again');
    return INBOX_UNAVAILABLE_TEXT;
  }
}

/**
 * A handoff's text (`text`: the rule's closing text, the handoff word's answer), or the app's out-of-hours answer in
 * the session's language when its team is away now (docs/inbox.md, "Office hours").
 */
export function toHandoffText(env: HopEnv, loaded: LoadedApp, channel: InboxChannel, language: string | null, text: string): string {
  if ('missing' in loaded || !loaded.officeHours || isOpenAt(loaded.officeHours, env.ctx.now())) return text;
  return getClosedReply(loaded.officeHours, language, loaded.compiled.app.languages?.defaultLanguage ?? null, channel);
}

/**
 * Step: opens the contact's conversation, the session having ended on the handoff. The handoff's text, or
 * HANDOFF_FAILED_TEXT when the inbox could not take it (the next message starts the flow again).
 */
export async function openForAgents(env: HopEnv, handoffs: ChatHandoffs, handoff: Handoff): Promise<string> {
  try {
    await handoffs.openConversation(handoff);
    return handoff.botText;
  } catch (err) {
    env.ctx.log.error({ err, appId: handoff.appId }, 'an inbox conversation could not be opened; the customer was told');
    return HANDOFF_FAILED_TEXT;
  }
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
  // The user asked for a person: they left the bot's session.
  if (open) env.records.recordSession(open.state, { status: 'abandoned', cause: 'user_cancelled', ...toSessionEnd(open) });
  const fallback = loaded.compiled.app.languages?.defaultLanguage ?? null;
  const text = toHandoffText(env, loaded, 'whatsapp', word.language, getHandoffReply(loaded.handoffKeywords, word.language, fallback));
  return openForAgents(env, handoffs, {
    ...target,
    reason: `keyword: ${word.word}`,
    inputs: { ...(open?.state.inputs ?? {}) },
    customerText: message.text,
    botText: text,
    inbound: true,
  });
}

/**
 * Step, for a gateway's hop (USSD): a rule's handoff is a callback request (docs/inbox.md, "Callback requests"). The
 * conversation opens with the caller's number and the session's answers, and the caller's end screen stays the
 * rule's text; CALLBACK_FAILED_TEXT when it could not be stored. Only a caller's hop on a gateway URL asks: the
 * emulator (a console user's own session) and featured templates run the screen and open nothing.
 */
export async function requestCallback(env: HopEnv, handoffs: ChatHandoffs, request: HopRequest, answered: HopAnswer): Promise<HopAnswer> {
  const { loaded } = request;
  if (!answered.handoff || request.caller !== null || 'missing' in loaded || loaded.isTemplate) return answered;
  const msisdn = toE164(answered.hop.msisdn, loaded.country);
  if (msisdn === null) return answered;
  const { reason, inputs, language, whatsappBotId } = answered.handoff;
  try {
    // "Continue on WhatsApp": the conversation opens on the bot, whose number the caller is asked to message. A bot
    // that is not the account's, or has no number connected now, makes it a callback request instead.
    const whatsapp = whatsappBotId ? await handoffs.findWhatsAppNumber(loaded.ownerId, whatsappBotId) : null;
    if (whatsapp && whatsappBotId) {
      const text = toHandoffText(env, loaded, 'whatsapp', language, answered.reply.text).replaceAll(
        WHATSAPP_NUMBER_PLACEHOLDER,
        whatsapp.number,
      );
      await handoffs.openConversation({
        ownerId: loaded.ownerId,
        appId: whatsappBotId,
        channel: 'whatsapp',
        linkId: whatsapp.linkId,
        msisdn,
        reason: `${reason || 'asked for a person'} (from the USSD app ${loaded.compiled.app.appName})`,
        inputs,
        customerText: '',
        botText: text,
        inbound: false,
      });
      return { ...answered, reply: { ...answered.reply, text } };
    }
    const asked = whatsappBotId ? DEFAULT_CALLBACK_TEXT : answered.reply.text;
    const text = toHandoffText(env, loaded, 'ussd', language, asked);
    await handoffs.openConversation({
      ownerId: loaded.ownerId,
      appId: request.appId,
      channel: 'ussd',
      linkId: null,
      msisdn,
      reason,
      inputs,
      customerText: '',
      botText: text,
      inbound: false,
    });
    return { ...answered, reply: { ...answered.reply, text } };
  } catch (err) {
    env.ctx.log.error({ err, appId: request.appId }, 'a callback request could not be stored; the caller was told');
    return { ...answered, reply: { ...answered.reply, text: CALLBACK_FAILED_TEXT } };
  }
}
