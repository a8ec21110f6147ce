import type { RouteObject } from 'react-router';

export const consoleRoutes: RouteObject[] = [];
