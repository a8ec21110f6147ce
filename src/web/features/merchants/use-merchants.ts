import { useQuery } from '@tanstack/react-query';
import type { Merchant, MerchantUser } from '../../../shared/api/merchants.schema';
import { type ApiReply, isNotFound, readData } from '../../lib/api';
import { useAccountDeleteConfirm, useConfirmedCall } from '../../lib/use-confirmed-call';
import { queryKeys } from '../../lib/query-keys';
import {
  deleteMerchant,
  deleteMerchantUser,
  findMerchants,
  findMerchantUsers,
  findMyMerchants,
  getMerchant,
  getOwnMerchant,
} from './merchants.api';

/** Below `['merchants']`: the lists (the clone modal's picker reads the first), each merchant and its users. */
export const merchantKeys = {
  all: ['merchants'],
  list: queryKeys.merchants,
  mine: ['merchants', 'mine'],
  one: (uuid: string) => ['merchants', 'one', uuid],
  own: ['merchants', 'own'],
  users: (uuid: string) => ['merchants', 'users', uuid],
};

/** The merchant answered '04' (none, or not one the caller may see); not retried. */
export class MerchantNotFoundError extends Error {}

const noRetryOnNotFound = (count: number, err: Error) => !(err instanceof MerchantNotFoundError) && count < 1;

function readMerchantReply<T>(reply: ApiReply<T>, fallback: string): T {
  if (isNotFound(reply)) throw new MerchantNotFoundError(reply.message || 'Merchant not found');
  return readData(reply, fallback);
}

/** All Merchants (`mine` false) or My Merchants. */
export function useMerchants(mine: boolean) {
  return useQuery({
    queryKey: mine ? merchantKeys.mine : merchantKeys.list,
    queryFn: async (): Promise<Merchant[]> => readData(await (mine ? findMyMerchants() : findMerchants()), 'Failed to fetch merchants'),
  });
}

/** One merchant by uuid (admins), or with no uuid the signed-in merchant user's own company. */
export function useMerchant(uuid: string | undefined) {
  return useQuery({
    queryKey: uuid ? merchantKeys.one(uuid) : merchantKeys.own,
    queryFn: async (): Promise<Merchant> =>
      readMerchantReply(await (uuid ? getMerchant(uuid) : getOwnMerchant()), 'Failed to fetch merchants'),
    retry: noRetryOnNotFound,
  });
}

export function useMerchantUsers(merchantUuid: string | undefined) {
  return useQuery({
    queryKey: merchantKeys.users(merchantUuid ?? ''),
    queryFn: async (): Promise<MerchantUser[]> => readMerchantReply(await findMerchantUsers(merchantUuid!), 'Failed to fetch users'),
    enabled: !!merchantUuid,
    retry: noRetryOnNotFound,
  });
}

/** Asks first, then deletes; a toast with the server's message either way, and the merchant queries reload. */
export function useDeleteMerchantConfirm(): (merchant: Merchant, onDone?: () => void) => void {
  const confirm = useConfirmedCall(merchantKeys.all);
  return (merchant, onDone) =>
    confirm({
      title: `Delete ${merchant.companyName}`,
      question: `Are you sure you want to delete the merchant ${merchant.companyName}? Its users and the apps they own are deleted with it.`,
      done: { title: 'Deleted', message: 'Deleted' },
      refused: { title: 'Failed to delete merchant', message: 'Failed to delete merchant' },
      call: () => deleteMerchant(merchant.uuid),
      onDone,
    });
}

export function useDeleteMerchantUserConfirm(): (user: MerchantUser) => void {
  return useAccountDeleteConfirm(merchantKeys.all, 'user', deleteMerchantUser);
}
