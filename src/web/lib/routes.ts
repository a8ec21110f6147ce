import { matchRoutes } from 'react-router';
import { router } from '../router';

/**
 * True when the console has a screen for this path (its route exists and is not the catch-all). Links to
 * screens that are not built yet are hidden or shown disabled, never dead. Reads the router at call time.
 */
export function hasScreen(path: string): boolean {
  const matches = matchRoutes(router.routes, path);
  return !!matches && matches.at(-1)?.route.path !== '*';
}
