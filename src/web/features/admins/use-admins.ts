import { useQuery } from '@tanstack/react-query';
import type { Admin, AdminProfile } from '../../../shared/api/admins.schema';
import type { Merchant } from '../../../shared/api/merchants.schema';
import { isNotFound, readData } from '../../lib/api';
import { useAccountDeleteConfirm, useConfirmedCall } from '../../lib/use-confirmed-call';
import {
  deleteAdmin,
  findAdmins,
  findAuditEntries,
  findContactRequests,
  findRoleTypes,
  getAdminProfile,
  unassignMerchant,
} from './admins.api';

/** Below `['admins']`: the list, each admin's profile, the role types, the audit log, the contact requests. */
export const adminKeys = {
  all: ['admins'],
  list: ['admins', 'list'],
  profile: (uuid: string) => ['admins', 'profile', uuid],
  roleTypes: ['admins', 'role-types'],
  auditLog: ['admins', 'audit-log'],
  contactRequests: ['admins', 'contact-requests'],
};

export class AdminNotFoundError extends Error {}

export function useAdmins() {
  return useQuery({
    queryKey: adminKeys.list,
    queryFn: async (): Promise<Admin[]> => readData(await findAdmins(), 'Failed to fetch admin list'),
  });
}

export function useAdminProfile(uuid: string) {
  return useQuery({
    queryKey: adminKeys.profile(uuid),
    queryFn: async (): Promise<AdminProfile> => {
      const reply = await getAdminProfile(uuid);
      if (isNotFound(reply)) throw new AdminNotFoundError(reply.message || 'Admin not found');
      return readData(reply, 'Failed to fetch admin details');
    },
    retry: (count: number, err: Error) => !(err instanceof AdminNotFoundError) && count < 1,
  });
}

export function useRoleTypes() {
  return useQuery({
    queryKey: adminKeys.roleTypes,
    queryFn: async () => readData(await findRoleTypes(), 'Failed to fetch role types'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useAuditEntries() {
  return useQuery({
    queryKey: adminKeys.auditLog,
    queryFn: async () => readData(await findAuditEntries(), 'The audit log could not be loaded.'),
  });
}

export function useContactRequests() {
  return useQuery({
    queryKey: adminKeys.contactRequests,
    queryFn: async () => readData(await findContactRequests(), 'The contact requests could not be loaded.'),
  });
}

export function useDeleteAdminConfirm(): (admin: Admin) => void {
  return useAccountDeleteConfirm(adminKeys.all, 'admin', deleteAdmin);
}

export function useUnassignMerchantConfirm(adminUuid: string): (merchant: Merchant) => void {
  const confirm = useConfirmedCall(adminKeys.all);
  return (merchant) =>
    confirm({
      title: `Remove ${merchant.companyName}`,
      question: `Are you sure you want to unassign ${merchant.companyName} from this admin? It leaves their My Merchants.`,
      confirmLabel: 'Remove',
      done: { title: 'Remove', message: 'Done' },
      refused: { title: 'Failed to remove merchant', message: 'Failed to remove merchant' },
      call: () => unassignMerchant(adminUuid, merchant.uuid),
    });
}
