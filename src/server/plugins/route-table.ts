import type { FastifyInstance, RouteOptions } from 'fastify';
import type { ApiKeyScope } from '../../shared/api/api-keys.schema';
import type { Audience } from '../../shared/roles';
import { getGuardAudiences } from './guard';

/** Who may call a route, as its declaration says: no guard (`public`), any signed-in account, or audiences. */
export type RouteAccess = 'public' | 'signedIn' | Audience[];

export interface DeclaredRoute {
  method: string;
  url: string;
  access: RouteAccess;
  /** Hidden from the API document: the documentation UI's and the console's static files. */
  isHidden: boolean;
  /** The scope of API key the route takes (docs/api-keys.md); absent: keys get 403. */
  apiKeyScope?: ApiKeyScope;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route as declared, with its access rule; the authorization test walks it. */
    routeTable: DeclaredRoute[];
  }
}

const API_KEY_NOTE: Record<ApiKeyScope, string> = {
  read: 'Accepts an API key (`Authorization: Bearer dfk_...`) of either scope.',
  write: 'Accepts an API key (`Authorization: Bearer dfk_...`) with the write scope.',
};

/**
 * Records every route's method, URL and guard as it is declared. The authorization test
 * (src/server/authorization.int.test.ts) compares this with its own table of who may call what, so a new
 * route without a rule there fails CI. Must be registered before the routes.
 */
export function registerRouteTable(app: FastifyInstance): void {
  const table: DeclaredRoute[] = [];
  app.decorate('routeTable', table);
  app.addHook('onRoute', (route: RouteOptions) => {
    const guards = [route.onRequest ?? []]
      .flat()
      .map(getGuardAudiences)
      .filter((a) => a !== undefined);
    const audiences = guards[0];
    const access: RouteAccess = audiences === undefined ? 'public' : audiences.length === 0 ? 'signedIn' : audiences;
    const isHidden = !!(route.schema as { hide?: boolean } | undefined)?.hide;
    const apiKeyScope = route.config?.apiKeyScope;
    // The API document says how to call each guarded route: a session's bearer token, and for some an API key.
    if (access !== 'public' && route.schema) {
      const schema = route.schema as { security?: unknown; description?: string };
      schema.security = apiKeyScope ? [{ bearer: [] }, { apiKey: [] }] : [{ bearer: [] }];
      if (apiKeyScope) schema.description = `${schema.description ? `${schema.description} ` : ''}${API_KEY_NOTE[apiKeyScope]}`;
    }
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') table.push({ method, url: route.url, access, isHidden, ...(apiKeyScope ? { apiKeyScope } : {}) });
    }
  });
}
