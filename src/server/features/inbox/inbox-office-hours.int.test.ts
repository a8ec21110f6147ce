import { beforeAll, expect, it } from 'vitest';
import type { OfficeHours } from '../../../shared/office-hours';
import { DEFAULT_HANDOFF_TEXT } from '../../../shared/inbox';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';
import { customerWrites, seedHandoffBot, type LinkedBot } from '../../../../tests/support/inbox-bot';

/**
 * A bot's office hours (docs/inbox.md, "Office hours"): a rule's handoff or a handoff word out of hours still opens the
 * conversation, and the customer gets the out-of-hours answer (in the word's language) instead of the handoff text.
 */
describeDb("a bot's office hours", () => {
  const t = useTestApp();
  const builder = useUser(t, { roles: ['CHATBOT'] });
  let bot: LinkedBot;
  const weekday = { from: '08:00', to: '17:00' };
  const hours: OfficeHours = {
    timeZone: 'Africa/Accra',
    days: { mon: weekday, tue: weekday, wed: weekday, thu: weekday, fri: weekday },
    closedReply: { fr: 'Nous sommes fermés ({hours}).' },
  };
  beforeAll(async () => {
    bot = await seedHandoffBot(t, builder);
    const api = createApiClient(t, builder);
    const stored = (await api.get(`/api/chatbot/app/${bot.appId}`)).json().data;
    const saved = await api.post('/chatbot/app/update', {
      ...stored,
      officeHours: hours,
      handoffKeywords: { words: { en: ['agent'], fr: ['conseiller'] }, reply: {} },
    });
    expect(saved.json(), saved.body).toMatchObject({ status: '00', data: { officeHours: hours } });
    // The next Monday at 10:00 in Accra (UTC).
    const now = new Date();
    const monday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + ((8 - now.getUTCDay()) % 7 || 7), 10);
    t.advanceClock(monday - Date.now());
  });
  const conversationTexts = async (msisdn: string) => {
    const api = createApiClient(t, builder);
    const list = (await api.get('/api/inbox/conversations?filter=open')).json().data.conversations as Array<{
      msisdn: string;
      conversationId: string;
    }>;
    const conversation = list.find((c) => c.msisdn === msisdn);
    if (!conversation) return null;
    return ((await api.get(`/api/inbox/conversations/${conversation.conversationId}`)).json().data.messages as Array<{ text: string }>).map(
      (m) => m.text,
    );
  };

  it('in hours a handoff gets its usual text; out of hours the out-of-hours answer, and the conversation opens', async () => {
    await customerWrites(t, bot, '233241000401', 'hi');
    expect(await customerWrites(t, bot, '233241000401', '2')).toEqual([DEFAULT_HANDOFF_TEXT]);

    t.advanceClock(8 * 3_600_000); // Monday 18:00: closed.
    // A bot in one language: the session has no language, so the first answer written (the default text without one,
    // office-hours.test.ts).
    const closed = 'Nous sommes fermés (Mon-Fri 08:00-17:00).';
    await customerWrites(t, bot, '233241000402', 'hi');
    expect(await customerWrites(t, bot, '233241000402', '2')).toEqual([closed]);
    expect(await conversationTexts('+233241000402')).toEqual(['2', closed]);
  });

  it("out of hours a handoff word gets the answer in the word's language", async () => {
    expect(await customerWrites(t, bot, '233241000403', 'conseiller')).toEqual(['Nous sommes fermés (Mon-Fri 08:00-17:00).']);
    expect(await conversationTexts('+233241000403')).toEqual(['conseiller', 'Nous sommes fermés (Mon-Fri 08:00-17:00).']);
  });
});
