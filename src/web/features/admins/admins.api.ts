import type { Admin, AdminProfile, AuditEntry, CreateAdminBody, UpdateAdminBody } from '../../../shared/api/admins.schema';
import type { z } from 'zod';
import type { contactRequestSchema } from '../../../shared/api/contact.schema';
import { api } from '../../lib/api';

export const ADMIN_LIST_PATH = '/admin/list';
export const ADMIN_CREATE_PATH = '/admin/create';
export const AUDIT_LOG_PATH = '/admin/audit-log';
export const CONTACT_REQUESTS_PATH = '/admin/contact-requests';
export const adminManagePath = (uuid: string) => `/admin/manage/${encodeURIComponent(uuid)}`;

export type ContactRequest = z.infer<typeof contactRequestSchema>;

export const findAdmins = () => api<Admin[]>('/api/admin/list');
export const createAdmin = (body: CreateAdminBody) => api<Admin>('/api/admin/create', { body });
export const deleteAdmin = (uuid: string) => api('/api/admin/delete', { body: { uuid } });
export const getAdminProfile = (uuid: string) => api<AdminProfile>(`/api/admin/profile/${encodeURIComponent(uuid)}`);
export const findRoleTypes = () => api<string[]>('/api/admin/role-types');
export const updateAdminProfile = (body: UpdateAdminBody) => api<Admin>('/api/admin/update-profile', { body });
export const assignMerchant = (adminUuid: string, merchantUuid: string) =>
  api('/api/admin/assign-merchant', { body: { adminUuid, merchantUuid } });
export const unassignMerchant = (adminUuid: string, merchantUuid: string) =>
  api('/api/admin/unassign-merchant', { body: { adminUuid, merchantUuid } });
export const findAuditEntries = () => api<AuditEntry[]>('/api/admin/audit-log');
export const findContactRequests = () => api<ContactRequest[]>('/api/admin/contact-requests');
