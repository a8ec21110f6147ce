/**
 * The message templates a business writes first with when the 24-hour window is closed (docs/bots.md, "Writing
 * first"): the narrow part of templates this feature needs. Templates themselves (stored, submitted to Meta,
 * rendered) are their own feature; it plugs its sender in here. Until then only the simulator sends templates: its
 * phone page shows the text and the quick-reply buttons, and a tap comes back as the button's text.
 */
import type { MessageTemplate } from '../../../shared/api/bot-conversations.schema';
import { toConversation } from '../../../shared/whatsapp';
import type { SimulatorConnector } from '../../../integrations/whatsapp/simulator';

export interface TemplateSender {
  /** The linked number's templates, whatever their status. */
  list(linkId: string): Promise<MessageTemplate[]>;
  /** One template by name and language; null when the number has none such. */
  find(linkId: string, name: string, language: string): Promise<MessageTemplate | null>;
  /** Sends the template with its variables' values to `to` (digits); rejects with the provider's words when refused. */
  send(linkId: string, to: string, template: MessageTemplate, values: Record<string, string>): Promise<void>;
}

/** A template's text with its `{{name}}` variables filled. */
export const fillTemplateText = (template: MessageTemplate, values: Record<string, string>) =>
  template.text.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (_, name: string) => values[name] ?? '');

/** The simulator's templates: what a linked number of a Meta business would have, one of them still in review. */
export const SIMULATOR_TEMPLATES: readonly MessageTemplate[] = [
  {
    name: 'welcome_back',
    language: 'en',
    status: 'APPROVED',
    text: 'Hello {{name}}, we have news for you. Tap Start to see our menu.',
    variables: ['name'],
    quickReplies: ['Start'],
  },
  {
    name: 'order_update',
    language: 'en',
    status: 'APPROVED',
    text: 'Hi {{name}}, your order {{order}} is ready. Reply to continue.',
    variables: ['name', 'order'],
    quickReplies: ['Continue', 'Later'],
  },
  {
    name: 'spring_promo',
    language: 'en',
    status: 'PENDING',
    text: 'Spring offers are here, {{name}}!',
    variables: ['name'],
    quickReplies: [],
  },
];

/** The simulator's sender: the template goes to the phone page's chat, as text or with its quick-reply buttons. */
export function createSimulatorTemplateSender(simulator: SimulatorConnector): TemplateSender {
  return {
    list: async () => [...SIMULATOR_TEMPLATES],
    find: async (_linkId, name, language) => SIMULATOR_TEMPLATES.find((t) => t.name === name && t.language === language) ?? null,
    async send(linkId, to, template, values) {
      const body = fillTemplateText(template, values);
      await simulator.send({
        linkId,
        conversation: toConversation(linkId, to),
        to,
        sessionId: '',
        end: false,
        messages: [
          template.quickReplies.length === 0
            ? { type: 'text', text: body }
            : { type: 'buttons', body, buttons: template.quickReplies.map((title) => ({ id: title, title })) },
        ],
      });
    },
  };
}

/** No templates (connectors whose sender is not plugged in yet): a closed window cannot be written to. */
export const NO_TEMPLATES: TemplateSender = {
  list: async () => [],
  find: async () => null,
  send: async () => {
    throw new Error('This connector cannot send templates yet');
  },
};
