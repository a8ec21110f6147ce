/**
 * Diagnostic target (`--only=...,fastify`): Fastify with the same body parser the runtime uses
 * (@fastify/formbody), one route on the runtime's URL shape, answering a constant. The distance from
 * the bare server to this is the framework's share; from this to Dialflow is the runtime's own.
 */
import Fastify from 'fastify';
import fastifyFormbody from '@fastify/formbody';
import { reportFailed, reportReady, serveCommands } from './child';

try {
  const app = Fastify({ logger: false });
  await app.register(fastifyFormbody);
  app.post('/ussd/:appId/:environment', async (_req, reply) => reply.type('text/plain; charset=utf-8').send('CON hello'));
  serveCommands({ server: app.server, stop: () => app.close() });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  reportReady({
    port: typeof address === 'object' && address ? address.port : 0,
    appId: '',
    info: 'Fastify + formbody, one route, constant reply',
  });
} catch (err) {
  reportFailed(err);
}
