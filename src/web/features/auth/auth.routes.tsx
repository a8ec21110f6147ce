import type { RouteObject } from 'react-router';

/** Screens outside the console layout: signing in and out. */
export const authRoutes: RouteObject[] = [
  { path: '/login', lazy: async () => ({ Component: (await import('./login-page')).LoginPage }) },
  { path: '/register', lazy: async () => ({ Component: (await import('./register-page')).RegisterPage }) },
  { path: '/forgot-password', lazy: async () => ({ Component: (await import('./password-forgot-page')).PasswordForgotPage }) },
  { path: '/reset-password/:token', lazy: async () => ({ Component: (await import('./password-reset-page')).PasswordResetPage }) },
  { path: '/merchant/login', lazy: async () => ({ Component: (await import('./merchant-login-page')).MerchantLoginPage }) },
  { path: '/logout', lazy: async () => ({ Component: (await import('./logout-page')).LogoutPage }) },
];

/** Signed-in screens of this area, shown inside the console layout. */
export const accountRoutes: RouteObject[] = [
  { path: '/account-profile', lazy: async () => ({ Component: (await import('./account-profile-page')).AccountProfilePage }) },
];
