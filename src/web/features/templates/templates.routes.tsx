import type { RouteObject } from 'react-router';
import { TemplateListPage } from './template-list-page';

/** Signed-in screens of the templates area, shown inside the console layout. */
export const templatesRoutes: RouteObject[] = [{ path: '/app-templates', element: <TemplateListPage /> }];
