import { Browsers, downloadMediaMessage, initAuthCreds, makeCacheableSignalKeyStore } from 'baileys';
import { expect, it, vi } from 'vitest';
import { whatsappLinks } from '../../../db/schema';
import { createBaileysConnector } from '../../../integrations/whatsapp/baileys';
import type { LinkUpdate } from '../../../integrations/whatsapp/whatsapp-connector';
import { BaileysStandInSocket, closedWith } from '../../../../tests/support/baileys-stand-in';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';
import type { AppContext } from '../../context';
import { sendTemplateMessage } from './whatsapp-templates.service';

/**
 * A linked-device (Baileys) number has no template messages: WhatsApp's Web protocol sends text. A template sent from
 * one goes as the text it renders to (docs/whatsapp-templates.md): header in bold, body, footer in italics, and its
 * quick replies as numbered lines. Baileys' socket is a stand-in (this machine cannot reach WhatsApp); the connector,
 * the templates service and the database are real.
 */
describeDb('a template sent from a linked-device number', () => {
  const t = useTestApp();
  const builder = useUser(t, { roles: ['CHATBOT'] });

  it('goes as one text message, the template rendered with its values, through the linked socket', async () => {
    const { post } = createApiClient(t, builder);
    const appId = (await post('/api/chatbot/app/create', { appName: 'Device Bot', description: 'Linked device' })).json().data.appId;
    const [link] = await t.db
      .insert(whatsappLinks)
      .values({ appId, connector: 'baileys', status: 'CONNECTED', mobileNumber: '+233200000001' })
      .returning({ id: whatsappLinks.id });
    const linkId = link!.id;
    const made = (
      await post(`/api/chatbot/whatsapp/templates/${linkId}`, {
        name: 'order_ready',
        language: 'en',
        category: 'UTILITY',
        header: 'Order {{1}}',
        body: 'Hi {{1}}, your order is ready.',
        footer: 'Ama Shop',
        buttons: ['Collect', 'Deliver'],
        examples: { header: { '1': '#42' }, body: { '1': 'Ama' } },
      })
    ).json();
    expect(made, JSON.stringify(made)).toMatchObject({ status: '00', data: { status: 'APPROVED' } });

    // The number linked by a scan, as Baileys reports it: QR, keys, a restart, then an open socket.
    const sockets: BaileysStandInSocket[] = [];
    const updates: LinkUpdate[] = [];
    const keys = { get: async () => ({}), set: async () => {} };
    const connector = createBaileysConnector({
      authStore: { load: async () => ({ state: { creds: initAuthCreds(), keys }, saveCreds: async () => {} }), clear: async () => {} },
      log: { info() {}, warn() {}, error() {} },
      readMedia: async () => Promise.reject(new Error('a template sends no file')),
      events: { onLinkUpdate: async (_, update) => void updates.push(update), onMessage: async () => {} },
      loadBaileys: async () => ({
        makeWASocket: (config) => {
          const socket = new BaileysStandInSocket(config);
          sockets.push(socket);
          return socket;
        },
        makeCacheableSignalKeyStore,
        Browsers,
        downloadMediaMessage,
      }),
    });
    await connector.startLink(linkId, {});
    sockets[0]!.emit('connection.update', { qr: 'QR-1' });
    sockets[0]!.emit('creds.update', { me: { id: '233200000001:7@s.whatsapp.net', name: 'Shop' } });
    sockets[0]!.emit('connection.update', closedWith(515, 'Stream Errored (restart required)'));
    await vi.waitFor(() => expect(sockets).toHaveLength(2));
    sockets[1]!.user = { id: '233200000001:7@s.whatsapp.net' };
    sockets[1]!.emit('connection.update', { connection: 'open' });
    await vi.waitFor(() => expect(updates.at(-1)?.status).toBe('CONNECTED'));

    const context = { db: t.db, now: () => new Date() } as unknown as AppContext;
    const sent = await sendTemplateMessage(context, connector, {
      linkId,
      to: '233241234567',
      name: 'order_ready',
      language: 'en',
      values: { header: { '1': '#42' }, body: { '1': 'Ama' } },
    });
    const text = '*Order #42*\n\nHi Ama, your order is ready.\n\n_Ama Shop_\n1. Collect\n2. Deliver';
    expect(sent).toEqual([{ providerMessageId: 'OUT1', message: { type: 'text', text } }]);
    expect(sockets[1]!.sent).toEqual([{ jid: '233241234567@s.whatsapp.net', text }]);
    await connector.unlink(linkId);
  });
});
