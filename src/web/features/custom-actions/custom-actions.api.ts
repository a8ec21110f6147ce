import type { z } from 'zod';
import type {
  consoleMessageSchema,
  createCustomActionBodySchema,
  customActionListItemSchema,
  customActionSchema,
  customActionTemplateSchema,
  testCustomActionBodySchema,
  testReplySchema,
  updateCodeBodySchema,
  updateNameBodySchema,
} from '../../../shared/api/custom-actions.schema';
import { api } from '../../lib/api';

export type CustomAction = z.infer<typeof customActionSchema>;
export type CustomActionListItem = z.infer<typeof customActionListItemSchema>;
export type CustomActionTemplate = z.infer<typeof customActionTemplateSchema>;
export type ConsoleMessage = z.infer<typeof consoleMessageSchema>;
export type TestReply = z.infer<typeof testReplySchema>;

export const CUSTOM_ACTIONS_PATH = '/custom-functions';
export const customActionPath = (uuid: string) => `${CUSTOM_ACTIONS_PATH}/${encodeURIComponent(uuid)}`;

/** The fallback messages (docs/product.md, Custom functions) when the server gives no message. */
export const CUSTOM_ACTION_FALLBACKS = {
  load: 'Failed to load function',
  updateCode: 'Failed to update function code',
  updateDetails: 'Failed to update function details',
  test: 'Failed to test function',
  templates: 'Failed to load templates',
  create: 'Failed to create custom action',
  delete: 'Failed to delete custom action',
  copy: 'Failed to copy to clipboard',
} as const;

export const findCustomActions = () => api<CustomActionListItem[]>('/api/custom-actions');

export const getCustomAction = (uuid: string) => api<CustomAction>(`/api/custom-action/${encodeURIComponent(uuid)}`);

export const createCustomAction = (body: z.input<typeof createCustomActionBodySchema>) => api('/api/custom-action/create', { body });

export const updateCustomActionCode = (body: z.input<typeof updateCodeBodySchema>) => api('/api/custom-action/update-code', { body });

export const updateCustomActionName = (body: z.input<typeof updateNameBodySchema>) => api('/api/custom-action/update-name', { body });

export const deleteCustomAction = (uuid: string) => api(`/api/custom-action/delete/${encodeURIComponent(uuid)}`);

export const testCustomAction = (body: z.input<typeof testCustomActionBodySchema>) => api<TestReply>('/api/custom-action/test', { body });

export const findCustomActionTemplates = () => api<CustomActionTemplate[]>('/api/template/custom-actions');

/** The default javascript code (GET /api/docs/javascript): the SDK taught by example, for empty editors of scripts and functions. */
export const getDefaultJavascriptCode = () => api<string>('/api/docs/javascript');
