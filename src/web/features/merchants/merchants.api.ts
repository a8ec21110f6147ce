export const ALL_MERCHANTS_PATH = '/merchant/list';
export const MY_MERCHANTS_PATH = '/merchant/my-merchants';
export const REGISTER_MERCHANT_PATH = '/merchant/register';
export const MANAGE_ACCOUNT_PATH = '/merchant/manage-account';
export const OWN_TRANSACTIONS_PATH = '/merchant/trxns';
const segment = (uuid: string) => encodeURIComponent(uuid);
export const merchantUsersPath = (uuid: string) => `/merchant/list-users/${segment(uuid)}`;
export const merchantTransactionsPath = (uuid: string) => `/merchant/trxns/${segment(uuid)}`;
