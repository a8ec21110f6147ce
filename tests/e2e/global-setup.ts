import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makePng } from '../support/media-files';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { buildApp } from '../../src/server/app';
import { createConfig } from '../../src/server/config';
import { openDatabase } from '../../src/db/client';
import { seedDatabase } from '../../src/server/seed';
import { createUser } from '../../src/server/core/accounts';
import { findFreePort } from '../support/free-port';
import { reportMissingService } from '../support/services';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';
import { E2E_USERS, FIRST_MESSAGE_USER } from './fixtures';
import { contacts } from '../../src/db/schema';
import { seedSessionHealth } from './session-health-seed';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    hasBrowser: boolean;
    /** The shared Chromium's address (tests/e2e/browser.ts launchBrowser connects to it); empty when each file launches its own. */
    chromiumEndpoint: string;
    /** Where webhooks.e2e.ts's receiver listens: the one local address the server's outbound rules allow. */
    webhookReceiverPort: number;
    /** The loopback server the location form's map takes its tiles from (MAP_TILE_URL): tests never reach the internet. */
    mapTileOrigin: string;
  }
}

/** One real server for the browser tests: the built console, an in-memory PGlite, seeded demo data. */
export default async function setup(project: TestProject) {
  const hasBrowser = existsSync(CHROMIUM_PATH);
  if (!hasBrowser) {
    reportMissingService('e2e (browser)', `Chromium not found at ${CHROMIUM_PATH}; install Debian's chromium`);
    project.provide('hasBrowser', false);
    project.provide('baseUrl', '');
    project.provide('webhookReceiverPort', 0);
    project.provide('mapTileOrigin', '');
    project.provide('chromiumEndpoint', '');
    return;
  }
  execSync('node scripts/build-web-if-needed.mjs', { stdio: 'inherit' });

  // In memory, on its own thread as the server opens it (src/server/app.ts).
  const database = await openDatabase({ thread: true });
  await database.migrate();
  await seedDatabase(database.db, {
    adminEmail: E2E_USERS.superAdmin.email,
    adminPassword: E2E_USERS.superAdmin.password,
    demo: true,
    sandboxOrigin: 'http://127.0.0.1',
  });
  await createUser(database.db, { fullName: 'Esi Operations', ...E2E_USERS.admin, userType: 'internal_admin', roles: ['ADMIN'] });
  await createUser(database.db, { fullName: 'Yaw Bots', ...E2E_USERS.chatbot, roles: ['CHATBOT'] });
  await createUser(database.db, { fullName: 'Abla Support', ...E2E_USERS.support, userType: 'internal_admin', roles: ['SUPPORT'] });
  const { email, password, contact } = FIRST_MESSAGE_USER;
  const writer = await createUser(database.db, { fullName: 'Efua Writer', email, password, roles: ['CHATBOT'] });
  await database.db.insert(contacts).values({
    ownerId: writer.id,
    msisdn: contact,
    name: 'Akosua',
    // Not opted in: first-message.e2e.ts opts the contact in on the Contacts screen.
    consent: {},
  });
  // Finished sessions with end causes and hop times, as the runtime records them (session-health.e2e.ts).
  await seedSessionHealth(database.db);

  // Its own address as PUBLIC_URL: the sandbox checkout a payment opens in a new tab is served from there.
  const port = await findFreePort();
  const webhookReceiverPort = await findFreePort();
  const tiles = await startTileServer();
  const app = await buildApp(
    createConfig({
      NODE_ENV: 'test',
      PORT: port,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOGIN_RATE_LIMIT: 1000,
      LOGIN_ADDRESS_RATE_LIMIT: 1000,
      LOGIN_GLOBAL_RATE_LIMIT: 1000,
      IMPORT_ADDRESS_RATE_LIMIT: 1000,
      MEDIA_UPLOAD_ADDRESS_RATE_LIMIT: 1000,
      EMULATOR_RATE_LIMIT: 1000,
      TEST_HOP_RATE_LIMIT: 100_000,
      OUTBOUND_ALLOW_HOSTS: [`127.0.0.1:${webhookReceiverPort}`],
      // A campaign's page shows its cost at these prices (campaigns.e2e.ts).
      CAMPAIGN_PRICES: { currency: 'USD', whatsapp: { '233': 0.04 }, sms: { '233': 0.02 } },
      MAP_TILE_URL: `${tiles.origin}/tiles/{z}/{x}/{y}.png`,
      MAP_TILE_ATTRIBUTION: 'Test tiles',
      // The admins' browser tests use the console at once; two-factor.e2e.ts enrols a user of its own.
      TWO_FACTOR_REQUIRED_FOR_ADMINS: false,
      TWO_FACTOR_KEY: randomBytes(32).toString('hex'),
      SIGN_IN_SECRET: randomBytes(32).toString('hex'),
    }),
    { database, logger: false },
  );
  await app.listen({ port, host: '127.0.0.1' });
  // As npm start does: scripts in the apps under test never wait for workers to load.
  await app.startScripts();
  project.provide('baseUrl', `http://127.0.0.1:${port}`);
  project.provide('hasBrowser', true);
  project.provide('webhookReceiverPort', webhookReceiverPort);
  project.provide('mapTileOrigin', tiles.origin);
  // One Chromium for the tier: each file connects to it (its contexts close when it disconnects) instead of paying
  // for a launch of its own.
  const sharedChromium =
    process.env.E2E_SHARED_BROWSER === '0'
      ? undefined
      : await chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  project.provide('chromiumEndpoint', sharedChromium?.wsEndpoint() ?? '');

  return async () => {
    await sharedChromium?.close();
    await app.close();
    await tiles.close();
    await database.close();
  };
}

/** A tile server on loopback: every tile one pale PNG, as a map's land would be. */
async function startTileServer(): Promise<{ origin: string; close: () => Promise<void> }> {
  const tile = makePng(256, 256, { fill: 0xe8 });
  const server = createServer((req, res) => {
    if (!/^\/tiles\/\d+\/-?\d+\/-?\d+\.png$/.test(req.url ?? '')) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'max-age=3600' }).end(tile);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
