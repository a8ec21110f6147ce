import type { RouteObject } from 'react-router';
import { CustomActionEditPage } from './custom-action-edit-page';
import { CustomActionListPage } from './custom-action-list-page';

/** Signed-in screens of the custom actions area (/custom-functions and /custom-functions/{id}). */
export const customActionsRoutes: RouteObject[] = [
  { path: '/custom-functions', element: <CustomActionListPage /> },
  { path: '/custom-functions/:id', element: <CustomActionEditPage /> },
];
