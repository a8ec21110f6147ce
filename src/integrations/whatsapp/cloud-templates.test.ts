import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderTemplate } from '../../shared/whatsapp-templates';
import { createCloudTemplate, deleteCloudTemplate, readTemplateStatusUpdates, toCloudTemplateBody } from './cloud-templates';
import { createSimulatorConnector } from './simulator';

const shipped = renderTemplate(
  {
    name: 'order_shipped',
    language: 'en_US',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}' },
      { type: 'BODY', text: 'Hi {{1}}, it is on its way.' },
      { type: 'FOOTER', text: 'Akosua Orders' },
      { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Track' }] },
    ],
  },
  { header: { '1': '#42' }, body: { '1': 'Ama' } },
);

describe("Meta's template webhook and send body", () => {
  it('reads message_template_status_update changes as Meta documents them, and nothing else', () => {
    const body = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '102290129340398',
          time: 1764150000,
          changes: [
            {
              field: 'message_template_status_update',
              value: {
                event: 'REJECTED',
                message_template_id: 594425479261596,
                message_template_name: 'order_shipped',
                message_template_language: 'en_US',
                reason: 'INVALID_FORMAT',
              },
            },
            {
              field: 'message_template_status_update',
              value: {
                event: 'APPROVED',
                message_template_id: '77',
                message_template_name: 'hi',
                message_template_language: 'en',
                reason: 'NONE',
              },
            },
            { field: 'messages', value: { messaging_product: 'whatsapp', metadata: { phone_number_id: '1' } } },
            { field: 'message_template_status_update', value: { event: 'PAUSED' } },
          ],
        },
      ],
    };
    expect(readTemplateStatusUpdates(body)).toEqual([
      { event: 'REJECTED', templateId: '594425479261596', name: 'order_shipped', language: 'en_US', reason: 'INVALID_FORMAT' },
      { event: 'APPROVED', templateId: '77', name: 'hi', language: 'en', reason: '' },
    ]);
    expect(readTemplateStatusUpdates('not json')).toEqual([]);
  });

  it('writes the template send body', () => {
    expect(toCloudTemplateBody('233241234567', shipped)).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '233241234567',
      type: 'template',
      template: {
        name: 'order_shipped',
        language: { code: 'en_US' },
        components: [
          { type: 'header', parameters: [{ type: 'text', text: '#42' }] },
          { type: 'body', parameters: [{ type: 'text', text: 'Ama' }] },
        ],
      },
    });
  });

  it("shows a sent template in the simulator's chat as WhatsApp draws it", async () => {
    const simulator = createSimulatorConnector({
      origin: 'http://localhost',
      events: { onLinkUpdate: async () => {}, onMessage: async () => {} },
      readMedia: async () => Promise.reject(new Error('no files here')),
      now: () => new Date('2026-11-29T09:00:00Z'),
    });
    const sent = await simulator.sendTemplate!('link-1', '233241234567', shipped);
    // Under the id the send answered: the phone's receipts for it move its ticks.
    expect(sent).toHaveLength(1);
    expect(simulator.getTranscript('link-1', '233241234567')).toEqual([
      {
        direction: 'out',
        id: sent[0]!.providerMessageId,
        at: '2026-11-29T09:00:00.000Z',
        message: {
          type: 'buttons',
          body: '*Order #42*\n\nHi Ama, it is on its way.\n\n_Akosua Orders_',
          buttons: [{ id: '1', title: 'Track' }],
        },
      },
    ]);
  });
});

describe('template calls against a local Graph API', () => {
  const seen: string[] = [];
  let refusal: Record<string, unknown> = {};
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization}`);
    const answer = req.method === 'DELETE' ? { success: true } : { error: refusal };
    res.writeHead(req.method === 'DELETE' ? 200 : 400, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
  let credentials: { apiUrl: string; phoneNumberId: string; wabaId: string; accessToken: string };
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    credentials = { apiUrl: `http://127.0.0.1:${port}/v21.0/`, phoneNumberId: 'PN1', wabaId: 'WABA1', accessToken: 'tok' };
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const body = { name: 'order_shipped', language: 'en_US', category: 'UTILITY' as const, components: [] };

  it("says a refused template in Meta's words for a person when it gives them, its developer message otherwise", async () => {
    refusal = {
      message: 'Invalid parameter',
      code: 100,
      error_user_title: 'Message template already exists',
      error_user_msg: 'There is already English (US) content for this template.',
    };
    await expect(createCloudTemplate(credentials, body)).rejects.toThrow(
      'WhatsApp Cloud API: There is already English (US) content for this template. (100)',
    );
    refusal = { message: 'Invalid parameter', code: 100 };
    await expect(createCloudTemplate(credentials, body)).rejects.toThrow('WhatsApp Cloud API: Invalid parameter (100)');
  });

  it("deletes one language of a template by its id, with the number's bearer token", async () => {
    seen.length = 0;
    await deleteCloudTemplate(credentials, { name: 'order_shipped', id: '2001' });
    expect(seen).toEqual(['DELETE /v21.0/WABA1/message_templates?name=order_shipped&hsm_id=2001 Bearer tok']);
  });
});
