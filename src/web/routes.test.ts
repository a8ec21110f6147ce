import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { SIDEBAR } from '../shared/roles';
import { routes } from './routes';

const sidebarPaths = SIDEBAR.flatMap((entry) => [
  ...(entry.path ? [entry.path] : []),
  ...(entry.children ?? []).map((child) => child.path),
]);

describe('the console routes', () => {
  it.each(sidebarPaths)('has a screen for the sidebar entry %s', (path) => {
    const matched = matchRoutes(routes, path);
    expect(matched?.at(-1)?.route.path).toBe(path);
  });

  it('sends an unknown address to the not-found page', () => {
    expect(matchRoutes(routes, '/no-such-screen')?.at(-1)?.route.path).toBe('*');
  });
});
