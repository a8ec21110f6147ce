import { useQuery } from '@tanstack/react-query';
import {
  deleteMerchant,
  deleteMerchantUser,
  findMerchants,
  findMerchantUsers,
  findMyMerchants,
  getMerchant,
  getOwnMerchant,
} from '../../../shared/api/merchants.calls';
import type { Merchant, MerchantUser } from '../../../shared/api/merchants.schema';
import { type ApiReply, isNotFound, readData } from '../../lib/api';
import { call, callQuery, queryKey } from '../../lib/call';
import { useAccountDeleteConfirm, useConfirmedCall } from '../../lib/use-confirmed-call';

/**
 * The prefix of every merchants query (merchants.calls.ts): the lists (the clone modal's picker reads the first),
 * each merchant and its users, the transaction types. A change to a merchant or its users reloads them all.
 */
export const MERCHANTS_KEY = ['merchants'];

/** The merchant answered '04' (none, or not one the caller may see); not retried. */
export class MerchantNotFoundError extends Error {}

const noRetryOnNotFound = (count: number, err: Error) => !(err instanceof MerchantNotFoundError) && count < 1;

function readMerchantReply<T>(reply: ApiReply<T>, fallback: string): T {
  if (isNotFound(reply)) throw new MerchantNotFoundError(reply.message || 'Merchant not found');
  return readData(reply, fallback);
}

/** All Merchants (`mine` false) or My Merchants. */
export function useMerchants(mine: boolean) {
  return useQuery(callQuery(mine ? findMyMerchants : findMerchants, {}, 'Failed to fetch merchants'));
}

/** One merchant by uuid (admins), or with no uuid the signed-in merchant user's own company. */
export function useMerchant(uuid: string | undefined) {
  return useQuery({
    queryKey: uuid ? queryKey(getMerchant, { params: { uuid } }) : queryKey(getOwnMerchant),
    queryFn: async (): Promise<Merchant> =>
      readMerchantReply(await (uuid ? call(getMerchant, { params: { uuid } }) : call(getOwnMerchant)), 'Failed to fetch merchants'),
    retry: noRetryOnNotFound,
  });
}

/** A merchant's users' key, which creating a user invalidates. */
export const merchantUsersKey = (merchantUuid: string) => queryKey(findMerchantUsers, { params: { merchantUuid } });

export function useMerchantUsers(merchantUuid: string | undefined) {
  return useQuery({
    queryKey: merchantUsersKey(merchantUuid ?? ''),
    queryFn: async (): Promise<MerchantUser[]> =>
      readMerchantReply(await call(findMerchantUsers, { params: { merchantUuid: merchantUuid! } }), 'Failed to fetch users'),
    enabled: !!merchantUuid,
    retry: noRetryOnNotFound,
  });
}

/** Asks first, then deletes; a toast with the server's message either way, and the merchant queries reload. */
export function useDeleteMerchantConfirm(): (merchant: Merchant, onDone?: () => void) => void {
  const confirm = useConfirmedCall(MERCHANTS_KEY);
  return (merchant, onDone) =>
    confirm({
      title: `Delete ${merchant.companyName}`,
      question: `Are you sure you want to delete the merchant ${merchant.companyName}? Its users and the apps they own are deleted with it.`,
      done: { title: 'Deleted', message: 'Deleted' },
      refused: { title: 'Failed to delete merchant', message: 'Failed to delete merchant' },
      call: () => call(deleteMerchant, { body: { uuid: merchant.uuid } }),
      onDone,
    });
}

export function useDeleteMerchantUserConfirm(): (user: MerchantUser) => void {
  return useAccountDeleteConfirm(MERCHANTS_KEY, 'user', (uuid) => call(deleteMerchantUser, { body: { uuid } }));
}
