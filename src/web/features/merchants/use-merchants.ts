import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Merchant, MerchantUser } from '../../../shared/api/merchants.schema';
import { type ApiReply, failureText, isNotFound, isOk, readData } from '../../lib/api';
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

interface DeleteConfirm {
  title: string;
  question: string;
  failure: string;
  call: () => Promise<ApiReply>;
  onDone?: () => void;
}

/** Asks first, then deletes; a toast with the server's message either way, and the merchant queries reload. */
function useDeleteConfirm(): (confirm: DeleteConfirm) => void {
  const queryClient = useQueryClient();
  return ({ title, question, failure, call, onDone }) =>
    modals.openConfirmModal({
      title,
      centered: true,
      children: question,
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: async () => {
        const reply = await call();
        if (isOk(reply)) {
          notifications.show({ color: 'teal', title: 'Deleted', message: reply.message || 'Deleted' });
          onDone?.();
        } else notifications.show({ color: 'red', title: failure, message: failureText(reply, failure), autoClose: 8000 });
        await queryClient.invalidateQueries({ queryKey: merchantKeys.all });
      },
    });
}

export function useDeleteMerchantConfirm(): (merchant: Merchant, onDone?: () => void) => void {
  const confirm = useDeleteConfirm();
  return (merchant, onDone) =>
    confirm({
      title: `Delete ${merchant.companyName}`,
      question: `Are you sure you want to delete the merchant ${merchant.companyName}? Its users and the apps they own are deleted with it.`,
      failure: 'Failed to delete merchant',
      call: () => deleteMerchant(merchant.uuid),
      onDone,
    });
}

export function useDeleteMerchantUserConfirm(): (user: MerchantUser) => void {
  const confirm = useDeleteConfirm();
  return (user) =>
    confirm({
      title: `Delete ${user.fullName}`,
      question: `Are you sure you want to delete the user ${user.fullName} (${user.email})? They will no longer be able to sign in.`,
      failure: 'Failed to delete user',
      call: () => deleteMerchantUser(user.uuid),
    });
}
