import type { RouteObject } from 'react-router';
import { AccountProfilePage } from './account-profile-page';
import { LoginPage } from './login-page';
import { LogoutPage } from './logout-page';
import { MerchantLoginPage } from './merchant-login-page';
import { PasswordForgotPage } from './password-forgot-page';
import { PasswordResetPage } from './password-reset-page';
import { RegisterPage } from './register-page';

/** Screens outside the console layout: signing in and out. */
export const authRoutes: RouteObject[] = [
  { path: '/login', element: <LoginPage /> },
  { path: '/register', element: <RegisterPage /> },
  { path: '/forgot-password', element: <PasswordForgotPage /> },
  { path: '/reset-password/:token', element: <PasswordResetPage /> },
  { path: '/merchant/login', element: <MerchantLoginPage /> },
  { path: '/logout', element: <LogoutPage /> },
];

/** Signed-in screens of this area, shown inside the console layout. */
export const accountRoutes: RouteObject[] = [{ path: '/account-profile', element: <AccountProfilePage /> }];
