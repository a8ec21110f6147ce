import { createContext, useContext } from 'react';

/**
 * The console paths that have a screen. console.routes.tsx derives the set from its route list and the layout
 * provides it here, so a sidebar entry, a top-bar link or a button turns from 'Soon' into a link as soon as
 * its route is added, with no second list to keep in step.
 */
export const BuiltRoutesContext = createContext<ReadonlySet<string>>(new Set());

export function useIsRouteBuilt(): (path: string) => boolean {
  const builtRoutes = useContext(BuiltRoutesContext);
  return (path) => builtRoutes.has(path);
}
