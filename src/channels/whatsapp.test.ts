import { describe, expect, it } from 'vitest';
import { toChatMessage, toPlainText, WHATSAPP_LIMITS, type ChatMessage } from '../shared/whatsapp';
import { detectGateway } from './index';
import { ChannelError, type GatewayRequest } from './types';
import type { ReplyAttachment } from '../engine';
import { cutText, readChatMessage, toChatReply, toWhatsAppMessages, whatsapp } from './whatsapp';

const message = (fields: Partial<ChatMessage> = {}): ChatMessage => ({
  ...toChatMessage('link-1', { messageId: 'wamid.1', from: '233241234567', text: '1', kind: 'text' }, 1_700_000_000_000),
  ...fields,
});

describe('whatsapp channel: reading a message', () => {
  it('reads a message as an answer to the open screen, named by its message id, with no session id of its own', () => {
    const hop = readChatMessage(message());
    expect(hop).toMatchObject({
      kind: 'continue',
      input: '1',
      msisdn: '233241234567',
      network: 'WhatsApp',
      sessionId: '',
      hopId: 'wamid.1',
    });
  });

  it('reads a restart word, in any case and with spaces, as a new start; a picked choice never is one', () => {
    expect(readChatMessage(message({ text: '  MENU ' })).kind).toBe('start');
    expect(readChatMessage(message({ text: 'restart' })).kind).toBe('start');
    expect(readChatMessage(message({ text: '#' })).kind).toBe('start');
    expect(readChatMessage(message({ text: 'menu', kind: 'choice' })).kind).toBe('continue');
    expect(readChatMessage(message({ text: 'menus' })).kind).toBe('continue');
  });

  it('leaves hopId unset without a message id (the console simulator), and cleans what was typed', () => {
    const hop = readChatMessage(message({ messageId: '', text: 'a\u0000b\uD800' }));
    expect(hop.hopId).toBeUndefined();
    expect(hop.input).toBe('ab\uFFFD');
  });

  it('is never detected from a gateway request, nor forced onto a USSD URL with ?gateway=, nor read as one', () => {
    const request: GatewayRequest = {
      method: 'POST',
      query: {},
      body: { from: '233241234567', text: '1' },
      contentType: 'application/json',
    };
    expect(whatsapp.matches(request)).toBe(false);
    expect(() => detectGateway(request, 'whatsapp')).toThrow(ChannelError);
    expect(() => detectGateway(request, 'whatsapp')).toThrow(/not a USSD gateway/);
    expect(() => whatsapp.parseRequest(request)).toThrow(/never as a gateway request/);
  });
});

describe('whatsapp channel: replies', () => {
  const reply = (text: string, interactive: boolean, end = false) => toChatReply(message(), { text, end }, 's-9', { interactive });

  it('sends up to three short options as reply buttons whose ids are the numbers typed', () => {
    expect(reply('Welcome to Ama Shop\n1. Balance\n2) Help', true)).toEqual({
      linkId: 'link-1',
      conversation: 'link-1:233241234567',
      to: '233241234567',
      sessionId: 's-9',
      end: false,
      messages: [
        {
          type: 'buttons',
          body: 'Welcome to Ama Shop',
          buttons: [
            { id: '1', title: 'Balance' },
            { id: '2', title: 'Help' },
          ],
        },
      ],
    });
  });

  it('sends four to ten options as a list; a long title is cut with the whole of it as the description', () => {
    const long = 'Pay a merchant with mobile money';
    const [list] = reply(`Menu\n1. Airtime\n2. Data\n3. Bills\n4. ${long}`, true).messages;
    if (list?.type !== 'list') throw new Error('expected a list');
    expect(list.rows).toHaveLength(4);
    expect(list.rows[3]).toEqual({ id: '4', title: cutText(long, WHATSAPP_LIMITS.listRowTitle), description: long });
    expect(list.rows[3].title.length).toBeLessThanOrEqual(WHATSAPP_LIMITS.listRowTitle);
    expect(list.button.length).toBeLessThanOrEqual(WHATSAPP_LIMITS.listButton);
  });

  it('sends numbered text when the connector cannot show lists, the options do not fit, or the session ended', () => {
    const eleven = ['Pick', ...Array.from({ length: 11 }, (_, i) => `${i + 1}. Item ${i + 1}`)].join('\n');
    expect(reply(eleven, true).messages).toEqual([{ type: 'text', text: eleven }]);
    expect(reply('Menu\n1. Balance\n2. Help', false).messages).toEqual([{ type: 'text', text: 'Menu\n1. Balance\n2. Help' }]);
    expect(reply('Thanks\n1. Not an option now', true, true)).toMatchObject({ end: true, messages: [{ type: 'text' }] });
    expect(reply('What is your name?', true).messages).toEqual([{ type: 'text', text: 'What is your name?' }]);
    // A body over the interactive bound goes as text.
    const wordy = `${'x'.repeat(WHATSAPP_LIMITS.interactiveBody + 1)}\n1. A\n2. B`;
    expect(reply(wordy, true).messages[0]?.type).toBe('text');
  });

  it('keeps text within the message limit and never splits a surrogate pair', () => {
    const text = `${'a'.repeat(WHATSAPP_LIMITS.text - 2)}😀😀`;
    const [sent] = toWhatsAppMessages(text, { interactive: false, end: false });
    expect(sent).toMatchObject({ type: 'text' });
    const body = (sent as { text: string }).text;
    expect(body.length).toBeLessThanOrEqual(WHATSAPP_LIMITS.text);
    expect(body.endsWith('…')).toBe(true);
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(body)).toBe(false);
  });

  it('writes a list or buttons as numbered text for a connector without them', () => {
    expect(
      toPlainText({
        type: 'buttons',
        body: 'Pick',
        buttons: [
          { id: '1', title: 'Yes' },
          { id: '2', title: 'No' },
        ],
      }),
    ).toBe('Pick\n1. Yes\n2. No');
    expect(
      toPlainText({ type: 'list', body: 'Pick', button: 'Open', rows: [{ id: '1', title: 'Pay a mer…', description: 'Pay a merchant' }] }),
    ).toBe('Pick\n1. Pay a merchant');
  });
});

describe('whatsapp channel: media', () => {
  const receipt = { mediaId: 'med-9', kind: 'document', mimeType: 'application/pdf', size: 1234, fileName: 'r.pdf' } as const;
  const attachments: ReplyAttachment[] = [
    { type: 'media', media: { ...receipt, caption: 'x'.repeat(2000) } },
    { type: 'location', location: { latitude: 5.6, longitude: -0.18, name: 'Shop' } },
    { type: 'contact', contact: { name: 'Help desk', phones: ['+233302000000'] } },
  ];

  it('sends attachments first, each as its own message, then the screen (a caption cut to 1,024 characters)', () => {
    const sent = toWhatsAppMessages('Pick one\n1. Yes\n2. No', { interactive: true, end: false, attachments });
    expect(sent).toEqual([
      { type: 'media', media: { ...receipt, caption: `${'x'.repeat(1023)}…` } },
      attachments[1],
      attachments[2],
      {
        type: 'buttons',
        body: 'Pick one',
        buttons: [
          { id: '1', title: 'Yes' },
          { id: '2', title: 'No' },
        ],
      },
    ]);
    // Connectors without interactive messages still get the files, pins and cards (they send them the same).
    expect(toWhatsAppMessages('Bye', { interactive: false, end: true, attachments }).map((m) => m.type)).toEqual([
      'media',
      'location',
      'contact',
      'text',
    ]);
  });

  it('makes the screen the body of a link button or a location request, or text then its plain form', () => {
    const link = { text: 'Track', url: 'https://t.example.com/1' };
    expect(toWhatsAppMessages('Your order is on its way', { interactive: true, end: false, linkButton: link })).toEqual([
      { type: 'link', body: 'Your order is on its way', button: 'Track', url: link.url },
    ]);
    expect(toWhatsAppMessages('Where are you?', { interactive: true, end: false, requestLocation: true })).toEqual([
      { type: 'locationRequest', body: 'Where are you?' },
    ]);
    expect(toWhatsAppMessages('Where are you?', { interactive: false, end: false, requestLocation: true, linkButton: link })).toEqual([
      { type: 'text', text: 'Where are you?' },
      { type: 'text', text: `Track\nTrack: ${link.url}` },
    ]);
    const long = 'a'.repeat(WHATSAPP_LIMITS.interactiveBody + 1);
    expect(toWhatsAppMessages(long, { interactive: true, end: false, linkButton: link })).toEqual([
      { type: 'text', text: long },
      { type: 'link', body: 'Track', button: 'Track', url: link.url },
    ]);
  });

  it("carries a reply's media through toChatReply", () => {
    const reply = { text: 'Hi', end: false, attachments: [attachments[2]], linkButton: { text: 'Open', url: 'https://x.example.com' } };
    expect(toChatReply(message(), reply, 's-1', { interactive: true }).messages).toEqual([
      attachments[2],
      { type: 'link', body: 'Hi', button: 'Open', url: 'https://x.example.com' },
    ]);
  });

  it('reads a shared location into the hop; a file waits for the runtime to store it (its caption is the input till then)', () => {
    const location = { latitude: 5.6, longitude: -0.18 };
    expect(readChatMessage(message({ kind: 'location', text: '', location }))).toMatchObject({ input: '', location, kind: 'continue' });
    const file = readChatMessage(
      message({ kind: 'media', text: 'my receipt', media: { kind: 'image', mimeType: 'image/jpeg', providerId: 'p1' } }),
    );
    expect(file.input).toBe('my receipt');
    expect(file.media).toBeUndefined();
  });
});
