import { readTemplateFile, type TemplateDefinition } from '../templates/featured-templates';

/**
 * The demo bot account's sample bot (seed.ts, demo-bot.json): a shop on WhatsApp whose first screen shows as
 * reply buttons and whose order menu shows as a list, so a newcomer sees both in the chat simulator.
 */
export function getDemoBot(): TemplateDefinition {
  return readTemplateFile(new URL('./demo-bot.json', import.meta.url));
}
