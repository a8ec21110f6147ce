import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { LOCATION_MESSAGES } from '../../src/shared/api/bots.schema';
import { makePdf, makePng } from '../support/media-files';
import { callApi, createWhatsAppBot, type LoginReplyBody, registerBotBuilder, storeSession } from './accounts';
import { findViolations } from './axe';
import {
  baseUrl,
  closeToasts,
  describeBrowser,
  launchBrowser,
  openPage,
  PHONE,
  screenshot,
  screenshotViewport,
  waitForAnimations,
} from './browser';

/**
 * Media in the console's chat simulator (docs/bots.md, "The chat simulator"): a bot asks for a photo (a real PNG
 * uploaded from the page) and a location (typed), then answers with an uploaded PDF and an image; the bubbles show
 * the thumbnail, the file card and the pin, and the completed session shows the photo and the location. Then the
 * same bot on a simulated phone: a photo from its attach menu and a location picked on the map (tiles from the
 * loopback server global-setup starts as MAP_TILE_URL).
 */

const CUSTOMER = '233209770301';
const DESKTOP_1280 = { width: 1280, height: 800 };
const visible = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });

describeBrowser('chat simulator: photos, locations and files', () => {
  let browser: Browser;
  let user: LoginReplyBody;
  let appId = '';
  let page: Page;
  const botName = `Claims Desk ${Date.now()}`;

  /** An upload as the designer makes it: the file is the body, its type the Content-Type. */
  async function upload(bytes: Buffer, mimeType: string, kind: string, fileName: string): Promise<string> {
    const query = new URLSearchParams({ kind, appId, fileName });
    const res = await fetch(`${baseUrl()}/api/media?${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': mimeType },
      body: new Uint8Array(bytes),
    });
    const reply = (await res.json()) as { status: string; data: { mediaId: string } };
    if (reply.status !== '00') throw new Error(`upload failed: ${JSON.stringify(reply)}`);
    return reply.data.mediaId;
  }

  async function createMenu(menu: Record<string, unknown>): Promise<string> {
    const reply = await callApi<unknown>(user.token, '/api/createMenu', { appId, ...menu });
    if (reply.status !== '00' || !reply.uniqueId) throw new Error(`createMenu failed: ${JSON.stringify(reply)}`);
    return reply.uniqueId;
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    user = await registerBotBuilder();
    appId = await createWhatsAppBot(user.token, botName, 'Claims with a photo');
    const receiptId = await upload(makePdf('Claim received'), 'application/pdf', 'document', 'claim-receipt.pdf');
    const bannerId = await upload(makePng(320, 160, { noise: true }), 'image/png', 'image', 'next-steps.png');
    const done = await createMenu({
      userDefinedName: 'done',
      displayText: 'Thank you: your claim is filed.',
      terminate: true,
      attachments: [
        { type: 'file', kind: 'document', source: 'upload', value: receiptId, caption: 'Your receipt', fileName: '' },
        { type: 'file', kind: 'image', source: 'upload', value: bannerId, caption: '', fileName: '' },
      ],
    });
    const where = await createMenu({
      userDefinedName: 'where',
      displayText: 'Where did it happen?',
      inputKind: 'location',
      requestLocation: true,
      switchOperations: [{ operator: 'always', action: 'goto', actionParam: done }],
    });
    await createMenu({
      userDefinedName: 'photo',
      displayText: 'Send a photo of the damage',
      isFirst: true,
      inputKind: 'image',
      switchOperations: [{ operator: 'always', action: 'goto', actionParam: where }],
    });
    page = await openPage(browser, DESKTOP_1280);
    await storeSession(page, user);
  });
  afterAll(async () => {
    await browser?.close();
  });

  const bubbles = () => page.getByTestId('chat-message');
  const lastBubble = () => bubbles().last();

  it('sends a photo and a typed location, and shows the PDF, the image and the pin', async () => {
    await page.goto(`/whatsapp-bot/simulator/${appId}`);
    await visible(page.getByRole('heading', { name: botName, level: 1 }));
    await page.getByLabel('Customer number').fill(CUSTOMER);
    await page.getByRole('textbox', { name: 'Message' }).fill('hi');
    await page.getByRole('button', { name: 'Send' }).click();
    await visible(lastBubble().getByText('Send a photo of the damage'));

    // A PDF picked as a photo is refused by the upload, in the server's own words, and nothing is sent to the bot.
    const notAPhoto = makePdf('not a photo');
    const refusal = await fetch(`${baseUrl()}/api/media?${new URLSearchParams({ kind: 'image', appId, fileName: 'scan.pdf' })}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/pdf' },
      body: new Uint8Array(notAPhoto),
    });
    const refusalText = ((await refusal.json()) as { message: string }).message;
    expect(refusal.status).toBe(400);
    await page.getByRole('button', { name: 'Attach' }).click();
    const refusedChooser = page.waitForEvent('filechooser');
    await page.getByRole('menuitem', { name: 'Photo' }).click();
    await (await refusedChooser).setFiles({ name: 'scan.pdf', mimeType: 'application/pdf', buffer: notAPhoto });
    await visible(page.getByRole('alert').filter({ hasText: refusalText }));
    expect(await bubbles().count()).toBe(2);

    // The paperclip's Photo opens a picker limited to what WhatsApp takes as a photo.
    const photo = makePng(64, 48, { noise: true });
    await page.getByRole('button', { name: 'Attach' }).click();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('menuitem', { name: 'Photo' }).click();
    expect(await page.locator('input[type=file][data-kind=image]').getAttribute('accept')).toBe('image/jpeg,image/png');
    await (await chooser).setFiles({ name: 'damage.png', mimeType: 'image/png', buffer: photo });
    const sentPhoto = bubbles()
      .filter({ has: page.getByTestId('chat-image') })
      .first();
    await visible(sentPhoto);
    expect(await sentPhoto.getAttribute('data-direction')).toBe('in');
    await visible(lastBubble().getByRole('button', { name: 'Share location' }));
    expect(await lastBubble().textContent()).toContain('Where did it happen?');

    // The location request's button opens the form; a latitude off the globe is refused in the server's words.
    await lastBubble().getByRole('button', { name: 'Share location' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share location' });
    await visible(dialog);
    await dialog.getByRole('textbox', { name: 'Latitude' }).fill('91');
    await dialog.getByRole('textbox', { name: 'Longitude' }).fill('-0.187');
    await dialog.getByRole('button', { name: 'Share' }).click();
    await visible(dialog.getByText(LOCATION_MESSAGES.latitude));
    await dialog.getByRole('textbox', { name: 'Latitude' }).fill('5.6037');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Osu branch');
    await dialog.getByRole('textbox', { name: 'Address' }).fill('Oxford Street, Accra');
    await dialog.getByRole('button', { name: 'Share' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // The customer's pin, then the bot's PDF card, its image and its text.
    const pin = page.getByTestId('chat-location').last();
    await visible(pin);
    expect(await pin.textContent()).toContain('Osu branch');
    expect(await pin.getByRole('link', { name: 'Open map' }).getAttribute('href')).toBe('https://maps.google.com/?q=5.6037,-0.187');
    await visible(page.getByTestId('chat-ended'));
    const pdfCard = page.getByTestId('chat-document');
    await visible(pdfCard);
    expect(await pdfCard.textContent()).toContain('claim-receipt.pdf');
    expect(await pdfCard.getAttribute('href')).toMatch(/\/media\/[0-9a-f-]+\?expires=\d+&signature=/);
    expect(await pdfCard.getAttribute('target')).toBe('_blank');
    const images = page.getByTestId('chat-image');
    expect(await images.count()).toBe(2);
    // Both thumbnails loaded through their signed links (a blocked or expired one would have no pixels).
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('[data-testid=chat-image]')].every((img) => img.complete && img.naturalWidth > 0),
    );
    expect(await images.last().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
    expect(await lastBubble().textContent()).toContain('Thank you: your claim is filed.');
    // The debug panel's User Inputs show the photo itself (a thumbnail opening its signed link), not its id.
    const photoInput = page.getByTestId('debug-user-inputs').getByRole('link', { name: /^Open the photo/ });
    await visible(photoInput);
    expect(await photoInput.getAttribute('href')).toMatch(/\/media\/[0-9a-f-]+\?expires=\d+&signature=/);

    expect(await findViolations(page)).toEqual([]);
    await closeToasts(page);
    await waitForAnimations(page);
    await page.getByTestId('chat-thread').evaluate((thread) => {
      thread.scrollTop = thread.scrollHeight;
    });
    await screenshot(page, 'chat-simulator-media-desktop');
    await page.setViewportSize(PHONE);
    await waitForAnimations(page);
    expect(await findViolations(page)).toEqual([]);
    await screenshot(page, 'chat-simulator-media-phone');
  });

  it("shows the session's photo and location in its completed sessions", async () => {
    await page.setViewportSize(DESKTOP_1280);
    await page.goto(`/app/completesession/${appId}`);
    const row = page.getByRole('row').filter({ hasText: CUSTOMER }).first();
    await visible(row, 15_000);
    await row.getByRole('button', { name: /^Show inputs/ }).click();
    const inputs = page.getByTestId('session-inputs');
    await visible(inputs);
    const photo = inputs.getByRole('link', { name: 'Open the photo damage.png' });
    await visible(photo);
    expect(await photo.getAttribute('href')).toMatch(/\/media\/[0-9a-f-]+\?expires=\d+&signature=/);
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid=session-inputs] img');
      return !!img && img.complete && img.naturalWidth === 64;
    });
    const pin = inputs.getByTestId('location-preview');
    expect(await pin.textContent()).toContain('Osu branch');
    expect(await pin.getByRole('link', { name: 'Open map' }).getAttribute('href')).toBe('https://maps.google.com/?q=5.6037,-0.187');
    expect(await findViolations(page)).toEqual([]);
    await closeToasts(page);
    await waitForAnimations(page);
    await screenshot(page, 'chat-simulator-media-session-desktop');
  });

  it('the simulated phone sends a photo and a location picked on the map, and draws them', async () => {
    const tileOrigin = inject('mapTileOrigin');
    expect((await callApi(user.token, `/api/deployChanges/${appId}`)).status).toBe('00');
    const linkId = (await callApi<{ linkId: string }>(user.token, '/api/chatbot/whatsapp/link', { chatBotAppId: appId })).data!.linkId;
    const status = await callApi<{ qrCode: string }>(user.token, `/api/chatbot/whatsapp/link-status/${linkId}`);
    const secret = new URL(status.data!.qrCode).searchParams.get('secret')!;
    expect((await callApi(user.token, `/api/whatsapp-simulator/${linkId}/scan`, { secret, mobileNumber: '+233200000078' })).status).toBe(
      '00',
    );

    await page.setViewportSize(DESKTOP_1280);
    await page.goto(`/whatsapp-simulator/${linkId}?secret=${encodeURIComponent(secret)}`);
    await page.getByLabel('Customer number').fill('233209770302');
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('hi');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await visible(lastBubble().getByText('Send a photo of the damage'));

    // The phone's attach menu is the chat simulator's: a photo goes with the message and shows from the page's copy.
    await page.getByRole('button', { name: 'Attach' }).click();
    const menu = page.getByRole('menu');
    await visible(menu.getByRole('menuitem', { name: 'Location' }));
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['Photo', 'Document', 'Audio', 'Video', 'Location']);
    await waitForAnimations(page);
    await screenshotViewport(page, 'simulated-phone-attach-desktop');
    const chooser = page.waitForEvent('filechooser');
    await menu.getByRole('menuitem', { name: 'Photo' }).click();
    await (await chooser).setFiles({ name: 'dent.png', mimeType: 'image/png', buffer: makePng(64, 48, { noise: true }) });
    await visible(lastBubble().getByRole('button', { name: 'Share location' }));
    const sentPhoto = page.getByTestId('chat-image').first();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid=chat-image]');
      return !!img && img.complete && img.naturalWidth === 64;
    });
    expect(await sentPhoto.getAttribute('src')).toMatch(/^blob:/);

    // The location request's button opens the form with its map; typed coordinates put the pin on it.
    await lastBubble().getByRole('button', { name: 'Share location' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share location' });
    const map = dialog.getByTestId('location-map');
    await visible(map);
    await page.waitForFunction(
      (origin) => {
        const tiles = [...document.querySelectorAll<HTMLImageElement>('.leaflet-tile-loaded')];
        return tiles.length > 0 && tiles.every((tile) => tile.src.startsWith(`${origin}/tiles/`) && tile.naturalWidth === 256);
      },
      tileOrigin,
      { timeout: 10_000 },
    );
    expect(await dialog.locator('.leaflet-marker-icon').count()).toBe(0);
    const latitude = dialog.getByRole('textbox', { name: 'Latitude' });
    const longitude = dialog.getByRole('textbox', { name: 'Longitude' });
    await latitude.fill('5.6037');
    await longitude.fill('-0.187');
    await visible(dialog.locator('.leaflet-marker-icon'));
    // A click on the map moves the pin and fills the coordinates: a point on the globe, no longer the typed one.
    const box = (await map.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.3, box.y + box.height * 0.7);
    await page.waitForFunction(() => (document.querySelector<HTMLInputElement>('input[placeholder="5.6037"]')?.value ?? '') !== '5.6037');
    const clicked = await latitude.inputValue();
    // Dragging the pin sets them again.
    const pinBox = (await dialog.locator('.leaflet-marker-icon').boundingBox())!;
    await page.mouse.move(pinBox.x + pinBox.width / 2, pinBox.y + pinBox.height / 2);
    await page.mouse.down();
    await page.mouse.move(pinBox.x + pinBox.width / 2 + 40, pinBox.y + pinBox.height / 2 - 30, { steps: 5 });
    await page.mouse.up();
    await page.waitForFunction(
      (before) => document.querySelector<HTMLInputElement>('input[placeholder="5.6037"]')?.value !== before,
      clicked,
    );
    const picked = { latitude: Number(await latitude.inputValue()), longitude: Number(await longitude.inputValue()) };
    // North-east of the click: a larger latitude and longitude.
    expect(picked.latitude).toBeGreaterThan(Number(clicked));
    expect(Math.abs(picked.latitude)).toBeLessThanOrEqual(90);
    expect(Math.abs(picked.longitude)).toBeLessThanOrEqual(180);
    expect(picked).not.toEqual({ latitude: 5.6037, longitude: -0.187 });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Workshop');
    expect(await findViolations(page)).toEqual([]);
    await screenshotViewport(page, 'location-map-picker-desktop');
    await dialog.getByRole('button', { name: 'Share' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // The phone draws the pin it shared, and the bot took it: the conversation ends with its thanks.
    const pin = page.getByTestId('chat-location').first();
    await visible(pin);
    expect(await pin.textContent()).toContain(`${picked.latitude}, ${picked.longitude}`);
    expect(await pin.getByRole('link', { name: 'Open map' }).getAttribute('href')).toBe(
      `https://maps.google.com/?q=${picked.latitude},${picked.longitude}`,
    );
    await visible(page.getByText('Thank you: your claim is filed.'));
    expect(await findViolations(page)).toEqual([]);
    await closeToasts(page);
    await waitForAnimations(page);
    await screenshot(page, 'simulated-phone-media-desktop');

    await page.setViewportSize(PHONE);
    await waitForAnimations(page);
    await screenshot(page, 'simulated-phone-media-phone');
    await page.getByRole('button', { name: 'Attach' }).click();
    await visible(page.getByRole('menuitem', { name: 'Location' }));
    await screenshotViewport(page, 'simulated-phone-attach-phone');
    await page.getByRole('menuitem', { name: 'Location' }).click();
    await visible(dialog.getByTestId('location-map'));
    await page.waitForFunction(() => document.querySelectorAll('.leaflet-tile-loaded').length > 0);
    await page.getByRole('menu').waitFor({ state: 'detached' });
    expect(await findViolations(page)).toEqual([]);
    await screenshotViewport(page, 'location-map-picker-phone');
  });
});
