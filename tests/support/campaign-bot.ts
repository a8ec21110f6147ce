import { expect } from 'vitest';
import { linkSimulatedNumber, type LinkedBot } from './inbox-bot';
import { seedMenu } from './seed-app';
import { createApiClient, type SeededUser, type TestApp } from './test-app';

/** The campaigns tests' template: `news` with the contact's name for its body's {{1}}. */
export const NEWS = { name: 'news', language: 'en', variables: { body: { '1': '{{contact.name}}' } } };

/**
 * A deployed bot on a CONNECTED simulator number with an approved template `news` ("Hello {{1}}, ..."), and its
 * first menu (a campaign's reply entry).
 */
export async function seedNewsBot(t: TestApp, builder: SeededUser): Promise<LinkedBot & { entryMenuId: string }> {
  const { get, post } = createApiClient(t, builder);
  const appId = (await post('/api/chatbot/app/create', { appName: 'News Bot', description: 'campaigns' })).json().data.appId;
  const entryMenuId = await seedMenu(t, builder.auth, appId, {
    userDefinedName: 'home',
    displayText: 'Our offers',
    isFirst: true,
    terminate: true,
  });
  expect((await get(`/api/deployChanges/${appId}`)).json().status).toBe('00');
  const bot = { appId, entryMenuId, ...(await linkSimulatedNumber(t, builder, appId, '+233200000000')) };
  const made = await post(`/api/chatbot/whatsapp/templates/${bot.linkId}`, {
    name: 'news',
    language: 'en',
    category: 'MARKETING',
    body: 'Hello {{1}}, our new offers are here.',
    buttons: [],
    examples: { body: { '1': 'Ama' } },
  });
  expect(made.json().status).toBe('00');
  return bot;
}
