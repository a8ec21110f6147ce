import type { z } from 'zod';
import type { contactRequestSchema } from '../../../shared/api/contact.schema';

export const ADMIN_LIST_PATH = '/admin/list';
export const ADMIN_CREATE_PATH = '/admin/create';
export const AUDIT_LOG_PATH = '/admin/audit-log';
export const CONTACT_REQUESTS_PATH = '/admin/contact-requests';
export const adminManagePath = (uuid: string) => `/admin/manage/${encodeURIComponent(uuid)}`;

export type ContactRequest = z.infer<typeof contactRequestSchema>;
