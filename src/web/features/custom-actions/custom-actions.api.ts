import type { z } from 'zod';
import type {
  consoleMessageSchema,
  customActionListItemSchema,
  customActionSchema,
  customActionTemplateSchema,
  testReplySchema,
} from '../../../shared/api/custom-actions.schema';
import { api, type ApiReply } from '../../lib/api';

export type CustomAction = z.infer<typeof customActionSchema>;
export type CustomActionListItem = z.infer<typeof customActionListItemSchema>;
export type CustomActionTemplate = z.infer<typeof customActionTemplateSchema>;
export type ConsoleMessage = z.infer<typeof consoleMessageSchema>;
export type TestReply = z.infer<typeof testReplySchema>;

export const CUSTOM_ACTIONS_PATH = '/custom-functions';
export const customActionPath = (uuid: string) => `${CUSTOM_ACTIONS_PATH}/${encodeURIComponent(uuid)}`;

/** The spec's fallbacks (section 8) when the server gives no message. */
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

/** The server's message, or the fallback when there is none (a network error returns an empty reply). */
export const replyMessage = (reply: ApiReply, fallback: string) => reply.message || fallback;

export const CUSTOM_ACTIONS_QUERY_KEY = ['custom-actions'] as const;
export const customActionQueryKey = (uuid: string) => ['custom-actions', uuid] as const;
export const CUSTOM_ACTION_TEMPLATES_QUERY_KEY = ['custom-actions', 'templates'] as const;

export const findCustomActions = () => api<CustomActionListItem[]>('/api/custom-actions');

export const getCustomAction = (uuid: string) => api<CustomAction>(`/api/custom-action/${encodeURIComponent(uuid)}`);

export const createCustomAction = (body: { actionName: string; description: string; code: string }) => api('/api/custom-action/create', { body });

export const updateCustomActionCode = (body: { uuid: string; code: string }) => api('/api/custom-action/update-code', { body });

export const updateCustomActionName = (body: { uuid: string; actionName: string; description: string }) => api('/api/custom-action/update-name', { body });

export const deleteCustomAction = (uuid: string) => api(`/api/custom-action/delete/${encodeURIComponent(uuid)}`);

export const testCustomAction = (body: { code: string; sessionValues: Record<string, unknown>; actionResults: Record<string, unknown> }) =>
  api<TestReply>('/api/custom-action/test', { body });

export const findCustomActionTemplates = () => api<CustomActionTemplate[]>('/api/template/custom-actions');

/** The default code: the SDK taught by example. */
export const getDefaultCode = () => api<string>('/api/docs/javascript');
