import type { FastifyInstance, RouteOptions } from 'fastify';
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
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route as declared, with its access rule; the authorization test walks it. */
    routeTable: DeclaredRoute[];
  }
}

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
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') table.push({ method, url: route.url, access, isHidden });
    }
  });
}
