import type { RouteObject } from 'react-router';
import { MerchantListPage } from './merchant-list-page';
import { MerchantProfilePage } from './merchant-profile-page';
import { MerchantRegisterPage } from './merchant-register-page';
import { MerchantTransactionsPage } from './merchant-transactions-page';
import { ALL_MERCHANTS_PATH, MANAGE_ACCOUNT_PATH, MY_MERCHANTS_PATH, OWN_TRANSACTIONS_PATH, REGISTER_MERCHANT_PATH } from './merchants.api';

/** Signed-in screens of the merchants area (docs/merchants.md): admins' merchant management, and merchant users' own. */
export const merchantsRoutes: RouteObject[] = [
  { path: ALL_MERCHANTS_PATH, element: <MerchantListPage /> },
  { path: MY_MERCHANTS_PATH, element: <MerchantListPage mine /> },
  { path: REGISTER_MERCHANT_PATH, element: <MerchantRegisterPage /> },
  { path: '/merchant/profile/:merchantUuid', element: <MerchantProfilePage view="profile" /> },
  { path: '/merchant/list-users/:merchantUuid', element: <MerchantProfilePage view="users" /> },
  { path: MANAGE_ACCOUNT_PATH, element: <MerchantProfilePage view="own" /> },
  { path: OWN_TRANSACTIONS_PATH, element: <MerchantTransactionsPage /> },
  { path: '/merchant/trxns/:merchantUuid', element: <MerchantTransactionsPage /> },
];
