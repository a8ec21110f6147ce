import type { RouteObject } from 'react-router';
import { ALL_MERCHANTS_PATH, MANAGE_ACCOUNT_PATH, MY_MERCHANTS_PATH, OWN_TRANSACTIONS_PATH, REGISTER_MERCHANT_PATH } from './merchants.api';

/** Signed-in screens of the merchants area (docs/merchants.md): admins' merchant management, and merchant users' own. */
export const merchantsRoutes: RouteObject[] = [
  { path: ALL_MERCHANTS_PATH, lazy: async () => ({ Component: (await import('./merchant-list-page')).MerchantListPage }) },
  {
    path: MY_MERCHANTS_PATH,
    lazy: async () => {
      const { MerchantListPage } = await import('./merchant-list-page');
      return { element: <MerchantListPage mine /> };
    },
  },
  { path: REGISTER_MERCHANT_PATH, lazy: async () => ({ Component: (await import('./merchant-register-page')).MerchantRegisterPage }) },
  {
    path: '/merchant/profile/:merchantUuid',
    lazy: async () => {
      const { MerchantProfilePage } = await import('./merchant-profile-page');
      return { element: <MerchantProfilePage view="profile" /> };
    },
  },
  {
    path: '/merchant/list-users/:merchantUuid',
    lazy: async () => {
      const { MerchantProfilePage } = await import('./merchant-profile-page');
      return { element: <MerchantProfilePage view="users" /> };
    },
  },
  {
    path: MANAGE_ACCOUNT_PATH,
    lazy: async () => {
      const { MerchantProfilePage } = await import('./merchant-profile-page');
      return { element: <MerchantProfilePage view="own" /> };
    },
  },
  {
    path: OWN_TRANSACTIONS_PATH,
    lazy: async () => ({ Component: (await import('./merchant-transactions-page')).MerchantTransactionsPage }),
  },
  {
    path: '/merchant/trxns/:merchantUuid',
    lazy: async () => ({ Component: (await import('./merchant-transactions-page')).MerchantTransactionsPage }),
  },
];
