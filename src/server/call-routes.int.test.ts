import { expect, it } from 'vitest';
import type { AnyCall } from '../shared/api/contract';
import { describeDb } from '../../tests/support/test-db';
import { useTestApp } from '../../tests/support/test-app';

// Every declared call (src/shared/api/*.calls.ts) must be a route the server registered from it.
const callModules = import.meta.glob<Record<string, AnyCall>>('../shared/api/*.calls.ts', { eager: true });
const declarations = Object.values(callModules).flatMap((module) => Object.values(module));

/** The OpenAPI path of a Fastify URL: `/api/apps/:appId` is `/api/apps/{appId}`. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describeDb('declared calls', () => {
  const t = useTestApp();

  it('are each in the OpenAPI document under their method, with their parameters, body and 200 reply', async () => {
    expect(declarations.length).toBeGreaterThan(50);
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    for (const declaration of declarations) {
      const operation = doc.paths[openApiPath(declaration.path)]?.[declaration.method.toLowerCase()];
      expect(operation, `${declaration.method} ${declaration.path}`).toBeDefined();
      expect(operation.responses['200'], `${declaration.method} ${declaration.path}`).toBeDefined();
      if (declaration.body) expect(operation.requestBody, `${declaration.method} ${declaration.path}`).toBeDefined();
      for (const name of declaration.path.match(/:([A-Za-z0-9_]+)/g) ?? [])
        expect(JSON.stringify(operation.parameters), `${declaration.path}`).toContain(`"${name.slice(1)}"`);
    }
  });
});
