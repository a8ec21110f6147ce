/**
 * Queueing and sending a campaign of 100,000 contacts (docs/campaigns.md, "Sending"): how long the start takes (the
 * audience becoming its messages), how fast the dispatcher sends against the configured pace, and the process's
 * memory. The server is what `npm start` runs (in-memory PGlite on its own thread, production settings, the campaign
 * dispatcher on its 1-second timer, real HTTP on a loopback port), with the SMS outbox provider. Three campaigns in one
 * run:
 *   1. SMS at the default pace (CAMPAIGN_SMS_PER_SECOND 20), for `--seconds` seconds: the pace kept;
 *   2. SMS with the pace raised out of the way (10,000 a second), for `--seconds` seconds: what the dispatcher itself sends;
 *   3. WhatsApp on a simulator number at the default pace (80 a second), for `--seconds` seconds.
 * A report, never part of `npm test`.
 *
 *   npx tsx bench/campaign-send.ts [--contacts=100000] [--seconds=20]
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/client';
import { contacts } from '../src/db/schema';
import { buildApp } from '../src/server/app';
import { createConfig } from '../src/server/config';
import { createUser } from '../src/server/core/accounts';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

async function main(): Promise<void> {
  const count = Number(arg('contacts') ?? 100_000);
  const seconds = Number(arg('seconds') ?? 20);
  const database = await openDatabase({ thread: true });
  await database.migrate();
  const user = await createUser(database.db, { fullName: 'Bench', email: 'bench@example.com', password: 'bench-pass', roles: ['CHATBOT'] });
  const at = new Date().toISOString();
  for (let start = 0; start < count; start += 5000) {
    await database.db.insert(contacts).values(
      Array.from({ length: Math.min(5000, count - start) }, (_, k) => ({
        ownerId: user.id,
        msisdn: `+23324${String(start + k).padStart(7, '0')}`,
        name: `Guest ${start + k}`,
        consent: {
          sms: { status: 'in' as const, at, source: 'import' as const, detail: 'bench' },
          whatsapp: { status: 'in' as const, at, source: 'import' as const, detail: 'bench' },
        },
      })),
    );
  }

  const settings = { NODE_ENV: 'production' as const, LOG_LEVEL: 'warn' as const };
  const app = await buildApp(createConfig(settings), { database, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', password: 'bench-pass' }),
  });
  const auth = { authorization: `Bearer ${((await login.json()) as { token: string }).token}`, 'content-type': 'application/json' };
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = (await res.json()) as { status: string; data?: Record<string, unknown>; linkId?: string; qrCode?: string };
    if (json.status !== '00') throw new Error(`${method} ${path}: ${JSON.stringify(json)}`);
    return json;
  };
  const sent = async (campaignId: string) =>
    Number(
      (
        (await database.db.execute(
          sql`select count(*)::int as n from campaign_messages where campaign_id = ${campaignId} and status = 'sent'`,
        )) as unknown as { rows: Array<{ n: number }> }
      ).rows[0]!.n,
    );
  const audience = (await call('POST', '/api/audiences', { name: 'Everyone', filter: {} })).data!.audienceId as string;

  /** Schedules a campaign now and waits for its start: the start's time. */
  async function startCampaign(body: Record<string, unknown>): Promise<{ id: string; startMs: number }> {
    const id = (await call('POST', '/api/campaigns', { audienceId: audience, ...body })).data!.campaignId as string;
    const scheduled = performance.now();
    await call('POST', `/api/campaigns/${id}/schedule`, {});
    for (;;) {
      const campaign = (await call('GET', `/api/campaigns/${id}`)).data!;
      if (campaign.status !== 'scheduled') return { id, startMs: performance.now() - scheduled };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Messages sent a second over `window` seconds once the first went, and the memory then. */
  async function rateOver(id: string, window: number) {
    while ((await sent(id)) === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    const from = await sent(id);
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, window * 1000));
    const n = (await sent(id)) - from;
    return { perSecond: n / ((performance.now() - started) / 1000), rss: process.memoryUsage().rss };
  }

  const rssBefore = process.memoryUsage().rss;
  const lines: string[] = [];
  try {
    // 1. SMS at the default pace.
    const paced = await startCampaign({ name: 'SMS paced', channels: 'sms', smsText: 'Dial *920*12# for our offers' });
    const pacedRate = await rateOver(paced.id, seconds);
    await call('POST', `/api/campaigns/${paced.id}/cancel`, {});
    lines.push(
      `SMS, default pace (${app.ctx.config.CAMPAIGN_SMS_PER_SECOND}/s): start of ${count} contacts ${Math.round(paced.startMs)} ms; ` +
        `${pacedRate.perSecond.toFixed(1)} sent/s over ${seconds} s (ratio to the pace ${(pacedRate.perSecond / app.ctx.config.CAMPAIGN_SMS_PER_SECOND).toFixed(2)}); RSS ${mb(pacedRate.rss)} MB`,
    );
    console.log(lines.at(-1));

    // 2. SMS with the pace out of the way: what the dispatcher itself sends.
    app.ctx.config.CAMPAIGN_SMS_PER_SECOND = 10_000;
    const open = await startCampaign({ name: 'SMS open', channels: 'sms', smsText: 'Dial *920*12# for our offers' });
    const openRate = await rateOver(open.id, seconds);
    await call('POST', `/api/campaigns/${open.id}/cancel`, {});
    lines.push(
      `SMS, pace raised to 10000/s: start of ${count} contacts ${Math.round(open.startMs)} ms; ${openRate.perSecond.toFixed(0)} sent/s over ${seconds} s ` +
        `(what the dispatcher itself sends); RSS ${mb(openRate.rss)} MB (before the campaigns ${mb(rssBefore)} MB)`,
    );
    console.log(lines.at(-1));
    app.ctx.config.CAMPAIGN_SMS_PER_SECOND = 20;

    // 3. WhatsApp on a simulator number at the default pace.
    const bot = (await call('POST', '/api/chatbot/app/create', { appName: 'Bench Bot', description: 'campaign' })).data!.appId as string;
    await call('POST', '/api/createMenu', { appId: bot, userDefinedName: 'home', displayText: 'Offers', isFirst: true, terminate: true });
    await call('GET', `/api/deployChanges/${bot}`);
    const link = await call('POST', '/api/chatbot/whatsapp/link', { chatBotAppId: bot });
    const status = await call('GET', `/api/chatbot/whatsapp/link-status/${link.linkId}`);
    const secret = new URL(status.qrCode!).searchParams.get('secret')!;
    await call('POST', `/api/whatsapp-simulator/${link.linkId}/scan`, { secret, mobileNumber: '+233200000000' });
    await call('POST', `/api/chatbot/whatsapp/templates/${link.linkId}`, {
      name: 'news',
      language: 'en',
      category: 'MARKETING',
      body: 'Hello {{1}}, our offers are here.',
      buttons: [],
      examples: { body: { '1': 'Ama' } },
    });
    app.ctx.config.CAMPAIGN_WHATSAPP_DAILY_LIMIT = count;
    const whatsapp = await startCampaign({
      name: 'WhatsApp',
      channels: 'whatsapp',
      botId: bot,
      template: { name: 'news', language: 'en', variables: { body: { '1': '{{contact.name}}' } } },
    });
    const waRate = await rateOver(whatsapp.id, seconds);
    await call('POST', `/api/campaigns/${whatsapp.id}/cancel`, {});
    lines.push(
      `WhatsApp (simulator), default pace (${app.ctx.config.CAMPAIGN_WHATSAPP_PER_SECOND}/s): start ${Math.round(whatsapp.startMs)} ms; ` +
        `${waRate.perSecond.toFixed(1)} sent/s over ${seconds} s (ratio to the pace ${(waRate.perSecond / app.ctx.config.CAMPAIGN_WHATSAPP_PER_SECOND).toFixed(2)}); RSS ${mb(waRate.rss)} MB`,
    );
    console.log(lines.at(-1));
  } finally {
    await app.close();
    await database.close();
  }
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
