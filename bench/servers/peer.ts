/**
 * The peer: `ussd-builder` (the best-known npm package for USSD menus) on express, serving the bench shop as a
 * builder would write it with that package: the same three screens and texts, a numeric check on the amount,
 * sessions in an in-memory object through the package's `sessionConfig` (its README's example), Africa's
 * Talking's format. Nothing is persisted and nothing is logged: what a few lines of express give.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import UssdMenu from 'ussd-builder';
import { reportFailed, reportReady, serveCommands } from './child';

const sessions: Record<string, Record<string, unknown>> = {};
const menu = new UssdMenu();
menu.sessionConfig({
  start: (sessionId: string, callback: () => void) => {
    if (!(sessionId in sessions)) sessions[sessionId] = {};
    callback();
  },
  end: (sessionId: string, callback: () => void) => {
    delete sessions[sessionId];
    callback();
  },
  set: (sessionId: string, key: string, value: unknown, callback: () => void) => {
    sessions[sessionId]![key] = value;
    callback();
  },
  get: (sessionId: string, key: string, callback: (err: null, value: unknown) => void) => {
    callback(null, sessions[sessionId]?.[key]);
  },
});

const PRODUCTS: Record<string, string> = { '1': 'Airtime', '2': 'Data' };

menu.startState({
  run: () => menu.con('Welcome to the shop\n1. Airtime\n2. Data'),
  next: { '1': 'amount', '2': 'amount' },
});
menu.state('amount', {
  run: () => {
    void menu.session.set('product', PRODUCTS[menu.val]).then(() => menu.con('Enter amount'));
  },
  // The numeric check: anything else shows the same screen again.
  next: { '*^\\d+$': 'done' },
});
menu.state('done', {
  run: () => {
    const amount = menu.val;
    void menu.session.get('product').then((product: string) => menu.end(`You chose ${product} for GHS ${amount}`));
  },
});
menu.on('error', (err: Error) => console.error('ussd-builder:', err.message));

const app = express();
app.use(express.urlencoded({ extended: false }));
app.post('/ussd/:appId/:environment', async (req, res) => {
  const body = req.body as Record<string, string>;
  const reply = await menu.run({
    phoneNumber: body.phoneNumber!,
    sessionId: body.sessionId!,
    serviceCode: body.serviceCode!,
    text: body.text ?? '',
  });
  res.type('text/plain').send(reply);
});

const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  reportReady({ port, appId: '', info: 'ussd-builder 1.3.2 on express 5, sessions in memory, nothing persisted or logged' });
});
server.on('error', reportFailed);

serveCommands({
  server,
  stop: () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
});
