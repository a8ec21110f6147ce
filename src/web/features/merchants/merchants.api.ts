import type {
  CreateMerchantUserBody,
  Merchant,
  MerchantBody,
  MerchantUser,
  Transaction,
  TransactionSearchBody,
  TransactionTotal,
  UpdateMerchantBody,
} from '../../../shared/api/merchants.schema';
import { api, type ApiReply } from '../../lib/api';

export const ALL_MERCHANTS_PATH = '/merchant/list';
export const MY_MERCHANTS_PATH = '/merchant/my-merchants';
export const REGISTER_MERCHANT_PATH = '/merchant/register';
export const MANAGE_ACCOUNT_PATH = '/merchant/manage-account';
export const OWN_TRANSACTIONS_PATH = '/merchant/trxns';
const segment = (uuid: string) => encodeURIComponent(uuid);
export const merchantUsersPath = (uuid: string) => `/merchant/list-users/${segment(uuid)}`;
export const merchantTransactionsPath = (uuid: string) => `/merchant/trxns/${segment(uuid)}`;

export const findMerchants = () => api<Merchant[]>('/api/merchant/list');
export const findMyMerchants = () => api<Merchant[]>('/api/merchant/my-merchants');
export const getMerchant = (uuid: string) => api<Merchant>(`/api/admin/merchants/${segment(uuid)}`);
export const getOwnMerchant = () => api<Merchant>('/api/merchant/profile');
export const registerMerchant = (body: MerchantBody) => api<Merchant>('/api/merchant/create', { body });
export const updateMerchant = (body: UpdateMerchantBody) => api<Merchant>('/merchant/update', { body });
export const deleteMerchant = (uuid: string) => api('/merchant/delete', { body: { uuid } });

export const findMerchantUsers = (merchantUuid: string) => api<MerchantUser[]>(`/api/merchant/${segment(merchantUuid)}/users`);
export const createMerchantUser = (body: CreateMerchantUserBody) => api<MerchantUser>('/api/merchant/user/create', { body });
export const deleteMerchantUser = (uuid: string) => api('/merchant/user/delete', { body: { uuid } });

export const findTransactionTypes = () => api<Array<{ value: string; label: string }>>('/api/merchant/transaction-types');
export const searchTransactions = (body: TransactionSearchBody) =>
  api<Transaction[]>('/api/merchant/transactions', { body }) as Promise<ApiReply<Transaction[]> & { totals?: TransactionTotal[] }>;
