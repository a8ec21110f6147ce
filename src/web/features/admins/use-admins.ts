import { useQuery } from '@tanstack/react-query';
import {
  deleteAdmin,
  findAdmins,
  findAuditEntries,
  findRoleTypes,
  getAdminProfile,
  unassignMerchant,
} from '../../../shared/api/admins.calls';
import type { Admin, AdminProfile } from '../../../shared/api/admins.schema';
import { findContactRequests } from '../../../shared/api/contact.calls';
import type { Merchant } from '../../../shared/api/merchants.schema';
import { isNotFound, readData } from '../../lib/api';
import { call, callQuery, queryKey } from '../../lib/call';
import { useAccountDeleteConfirm, useConfirmedCall } from '../../lib/use-confirmed-call';

/**
 * The prefix of every admins query (the declarations' keys in admins.calls.ts and contact.calls.ts): the list,
 * each admin's profile, the role types, the audit log, the contact requests. A change to an admin reloads them all.
 */
export const ADMINS_KEY = ['admins'];

export class AdminNotFoundError extends Error {}

export function useAdmins() {
  return useQuery(callQuery(findAdmins, {}, 'Failed to fetch admin list'));
}

export function useAdminProfile(uuid: string) {
  return useQuery({
    queryKey: queryKey(getAdminProfile, { params: { adminUuid: uuid } }),
    queryFn: async (): Promise<AdminProfile> => {
      const reply = await call(getAdminProfile, { params: { adminUuid: uuid } });
      if (isNotFound(reply)) throw new AdminNotFoundError(reply.message || 'Admin not found');
      return readData(reply, 'Failed to fetch admin details');
    },
    retry: (count: number, err: Error) => !(err instanceof AdminNotFoundError) && count < 1,
  });
}

export function useRoleTypes() {
  return useQuery({ ...callQuery(findRoleTypes, {}, 'Failed to fetch role types'), staleTime: Number.POSITIVE_INFINITY });
}

export function useAuditEntries() {
  return useQuery(callQuery(findAuditEntries, {}, 'The audit log could not be loaded.'));
}

export function useContactRequests() {
  return useQuery(callQuery(findContactRequests, {}, 'The contact requests could not be loaded.'));
}

export function useDeleteAdminConfirm(): (admin: Admin) => void {
  return useAccountDeleteConfirm(ADMINS_KEY, 'admin', (uuid) => call(deleteAdmin, { body: { uuid } }));
}

export function useUnassignMerchantConfirm(adminUuid: string): (merchant: Merchant) => void {
  const confirm = useConfirmedCall(ADMINS_KEY);
  return (merchant) =>
    confirm({
      title: `Remove ${merchant.companyName}`,
      question: `Are you sure you want to unassign ${merchant.companyName} from this admin? It leaves their My Merchants.`,
      confirmLabel: 'Remove',
      done: { title: 'Remove', message: 'Done' },
      refused: { title: 'Failed to remove merchant', message: 'Failed to remove merchant' },
      call: () => call(unassignMerchant, { body: { adminUuid, merchantUuid: merchant.uuid } }),
    });
}
