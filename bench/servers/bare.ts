/**
 * The yardstick: a bare node:http server that reads the request body (as any real endpoint must) and
 * answers the constant `CON hello` as text/plain. Nothing else: no routing, no parsing, no state.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { reportFailed, reportReady, serveCommands } from './child';

const BODY = 'CON hello';

const server = createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(BODY) });
    res.end(BODY);
  });
});

serveCommands({
  server,
  stop: () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
});

server.on('error', reportFailed);
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  reportReady({ port, appId: '', info: `bare node:http ${process.version}` });
});
