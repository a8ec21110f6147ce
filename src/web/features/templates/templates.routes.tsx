import type { RouteObject } from 'react-router';

/** Signed-in screens of the templates area, shown inside the console layout. */
export const templatesRoutes: RouteObject[] = [
  { path: '/app-templates', lazy: async () => ({ Component: (await import('./template-list-page')).TemplateListPage }) },
];
