import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { inboxConversations, whatsappWindows } from '../../src/db/schema';
import { createApiClient, type SeededUser, type TestApp } from './test-app';
import type { InboxEvent } from '../../src/shared/api/inbox.schema';
import { seedMenu } from './seed-app';

/**
 * Bots on simulated linked numbers: linking one, a bot that hands customers to the inbox (docs/inbox.md), and its
 * customers' phones.
 */

export interface LinkedBot {
  appId: string;
  linkId: string;
  secret: string;
}

/**
 * A deployed bot on a CONNECTED simulator number: home ("1. Orders / 2. A person"), whose 2 hands over (reason
 * "asked for a person", no closing text) and whose 1 goes to orders (asks a number, then ends).
 */
export async function seedHandoffBot(t: TestApp, builder: SeededUser): Promise<LinkedBot> {
  const { get, post } = createApiClient(t, builder);
  const appId = (await post('/api/chatbot/app/create', { appName: 'Shop Bot', description: 'hands over' })).json().data.appId;
  const done = await seedMenu(t, builder.auth, appId, { userDefinedName: 'done', displayText: 'Thanks', terminate: true });
  const orders = await seedMenu(t, builder.auth, appId, {
    userDefinedName: 'order',
    displayText: 'Your order number?',
    switchOperations: [{ operator: 'always', action: 'goto', actionParam: done }],
  });
  await seedMenu(t, builder.auth, appId, {
    userDefinedName: 'home',
    displayText: 'Welcome\n1. Orders\n2. A person',
    isFirst: true,
    switchOperations: [
      { operator: 'eq', compareVal: '1', action: 'goto', actionParam: orders },
      { operator: 'eq', compareVal: '2', action: 'Terminate', actionParam: '', handoff: { reason: 'asked for a person' } },
    ],
  });
  expect((await get(`/api/deployChanges/${appId}`)).json().status).toBe('00');
  return { appId, ...(await linkSimulatedNumber(t, builder, appId, '+233200000000')) };
}

/**
 * Links a deployed bot to a number on the simulator connector as its builder would: the link, the secret its QR
 * code carries, the scan from the simulated phone. The number is CONNECTED once this returns.
 */
export async function linkSimulatedNumber(
  t: TestApp,
  builder: Pick<SeededUser, 'auth'>,
  appId: string,
  mobileNumber: string,
): Promise<{ linkId: string; secret: string }> {
  const { get, post } = createApiClient(t, builder);
  const linkId = (await post('/api/chatbot/whatsapp/link', { chatBotAppId: appId })).json().linkId as string;
  const status = (await get(`/api/chatbot/whatsapp/link-status/${linkId}`)).json();
  const secret = new URL(status.qrCode).searchParams.get('secret')!;
  const scanned = (await post(`/api/whatsapp-simulator/${linkId}/scan`, { secret, mobileNumber }, {})).json();
  expect(scanned).toMatchObject({ status: '00', data: { status: 'CONNECTED' } });
  return { linkId, secret };
}

/** The customer writes on the simulated phone: the texts the bot sent back (none while agents hold the conversation). */
export async function customerWrites(t: TestApp, bot: LinkedBot, from: string, text: string): Promise<string[]> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/whatsapp-simulator/${bot.linkId}/messages`,
    payload: { secret: bot.secret, from, text, kind: 'text' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data.messages as Array<{ type: string; text?: string; body?: string }>).map((m) => m.text ?? m.body ?? m.type);
}

/** A conversation of the bot's, handed over by a customer ("hi", then "2"): its id. */
export async function handOver(t: TestApp, bot: LinkedBot, from: string): Promise<string> {
  await customerWrites(t, bot, from, 'hi');
  await customerWrites(t, bot, from, '2');
  const [row] = await t.db
    .select({ id: inboxConversations.id })
    .from(inboxConversations)
    .where(and(eq(inboxConversations.msisdn, `+${from}`), eq(inboxConversations.status, 'open')));
  return row!.id;
}

/**
 * Closes WhatsApp's 24-hour window of a handed-over customer: their last message (the conversation's and the
 * number's window) 25 hours ago, after the runtime's records are written.
 */
export async function closeWindow(t: TestApp, bot: LinkedBot, conversationId: string, from: string): Promise<void> {
  await t.app.runtime.flushEvents();
  const longAgo = new Date(Date.now() - 25 * 3_600_000);
  await t.db.update(inboxConversations).set({ lastInboundAt: longAgo }).where(eq(inboxConversations.id, conversationId));
  await t.db
    .update(whatsappWindows)
    .set({ lastInboundAt: longAgo })
    .where(and(eq(whatsappWindows.linkId, bot.linkId), eq(whatsappWindows.msisdn, `+${from}`)));
}

/** What the customer's phone shows as received, in order. */
export async function received(t: TestApp, bot: LinkedBot, from: string): Promise<string[]> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/whatsapp-simulator/${bot.linkId}/messages?secret=${encodeURIComponent(bot.secret)}&from=${from}`,
  });
  return (res.json().data.transcript as Array<{ direction: string; message: { text?: string; body?: string } }>)
    .filter((m) => m.direction === 'out')
    .map((m) => m.message.text ?? m.message.body ?? '');
}

/** An inbox events stream (`GET /api/inbox/events`) read as the console reads it: a streaming fetch. */
export interface InboxStream<E = InboxEvent> {
  status: number;
  /** The next `data:` event, skipping comments (the heartbeat). */
  next(): Promise<E>;
  /** The next raw chunk of text, comments included. */
  nextChunk(): Promise<string>;
  close(): void;
}

export async function openStream<E = InboxEvent>(
  origin: string,
  auth: Record<string, string>,
  path = '/api/inbox/events',
): Promise<InboxStream<E>> {
  const abort = new AbortController();
  const res = await fetch(`${origin}${path}`, { headers: auth, signal: abort.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  const nextChunk = async () => {
    const { value, done } = await reader.read();
    if (done) throw new Error('the stream ended');
    return decoder.decode(value, { stream: true });
  };
  return {
    status: res.status,
    nextChunk,
    async next() {
      for (;;) {
        const end = buffered.indexOf('\n\n');
        if (end >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          if (data) return JSON.parse(data.slice('data: '.length)) as E;
          continue;
        }
        buffered += await nextChunk();
      }
    },
    close: () => abort.abort(),
  };
}
