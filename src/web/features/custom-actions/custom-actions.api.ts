import type { z } from 'zod';
import type {
  consoleMessageSchema,
  customActionListItemSchema,
  customActionSchema,
  customActionTemplateSchema,
  testReplySchema,
} from '../../../shared/api/custom-actions.schema';

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
