import fastifySwagger from '@fastify/swagger';
import Fastify from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCall } from '../../shared/api/contract';
import { envelopeSchema } from '../../shared/api/envelope';
import { registerCall } from './register-call';

const findItems = defineCall({
  method: 'GET',
  path: '/api/apps/:appId/items',
  params: z.object({ appId: z.string().min(1).max(8) }),
  query: z.object({ limit: z.coerce.number().int().max(10).default(5) }),
  reply: envelopeSchema(z.array(z.object({ id: z.string() }))),
});

async function buildServer() {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(fastifySwagger, { openapi: { info: { title: 't', version: '1' } }, transform: jsonSchemaTransform });
  let seen: unknown;
  registerCall(app, findItems, {
    tags: ['items'],
    summary: "The app's items",
    handler: async (req) => {
      seen = { appId: req.params.appId, limit: req.query.limit };
      // An extra field the reply schema does not name never leaves the server.
      return { status: '00' as const, message: 'OK', data: [{ id: 'i1', secret: 's' }] };
    },
  });
  await app.ready();
  return { app, seen: () => seen };
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => close?.());

describe('registerCall', () => {
  it("registers the declaration's method and path, validates its params and query, and serializes with its reply", async () => {
    const { app, seen } = await buildServer();
    close = () => app.close();
    const res = await app.inject({ method: 'GET', url: '/api/apps/app1/items?limit=3' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: '00', message: 'OK', data: [{ id: 'i1' }] });
    expect(seen()).toEqual({ appId: 'app1', limit: 3 });
    expect((await app.inject({ method: 'GET', url: '/api/apps/app1/items?limit=11' })).statusCode).toBe(400);
    expect((await app.inject({ method: 'POST', url: '/api/apps/app1/items' })).statusCode).toBe(404);
  });

  it('lists the route in the OpenAPI document with its tags, summary and schemas', async () => {
    const { app } = await buildServer();
    close = () => app.close();
    const operation = app.swagger().paths?.['/api/apps/{appId}/items']?.get;
    expect(operation?.tags).toEqual(['items']);
    expect(operation?.summary).toBe("The app's items");
    expect(JSON.stringify(operation?.parameters)).toContain('"appId"');
    expect(JSON.stringify(operation?.parameters)).toContain('"limit"');
    expect(JSON.stringify(operation?.responses)).toContain('"data"');
    expect(operation).not.toHaveProperty('requestBody');
  });
});
