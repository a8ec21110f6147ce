/**
 * Who a user is and which sidebar entries each kind of user sees (docs/product.md, Roles and the sidebar).
 * The web sidebar, the server's role guard and the unit test that checks that table all read this file.
 */
export const USER_TYPES = ['user', 'internal_admin', 'merchant'] as const;
export type UserType = (typeof USER_TYPES)[number];

/** Role names kept on a user. ADMIN..SUPPORT are the roles offered on admin creation. */
export const ROLE_NAMES = ['ADMIN', 'MERCHANT', 'DEVELOPER', 'SUPPORT', 'CHATBOT', 'super_admin'] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

export type Audience = 'everyone' | 'nonAdmin' | 'admin' | 'chatbot' | 'superAdmin' | 'merchant';

export interface RoleSubject {
  userType: string;
  roles: readonly string[];
}

export interface Roles {
  isAdmin: boolean;
  isSuperAdmin: boolean;
  isChatbotUser: boolean;
  isMerchant: boolean;
  /** The remaining accounts: a label only. */
  isPrivateUser: boolean;
}

export function getRoles(subject: RoleSubject): Roles {
  const roles = new Set(subject.roles);
  const isAdmin = subject.userType === 'internal_admin' || roles.has('ADMIN');
  const isSuperAdmin = isAdmin && roles.has('super_admin');
  const isChatbotUser = roles.has('CHATBOT');
  const isMerchant = subject.userType === 'merchant';
  return { isAdmin, isSuperAdmin, isChatbotUser, isMerchant, isPrivateUser: !isAdmin && !isChatbotUser && !isMerchant };
}

/** The single word the console shows and the login response carries as `data.role`. */
export function getRoleLabel(subject: RoleSubject): string {
  const r = getRoles(subject);
  if (r.isSuperAdmin) return 'super_admin';
  if (r.isAdmin) return 'ADMIN';
  if (r.isMerchant) return 'MERCHANT';
  if (r.isChatbotUser) return 'CHATBOT';
  return 'USER';
}

export function isInAudience(audience: Audience, subject: RoleSubject): boolean {
  const r = getRoles(subject);
  switch (audience) {
    case 'everyone':
      return true;
    case 'nonAdmin':
      return !r.isAdmin;
    case 'admin':
      return r.isAdmin;
    case 'chatbot':
      return r.isChatbotUser;
    case 'superAdmin':
      return r.isSuperAdmin;
    case 'merchant':
      return r.isMerchant;
  }
}

export interface SidebarLink {
  label: string;
  path: string;
}
export interface SidebarEntry {
  label: string;
  /** Who sees it: any one audience listed is enough. */
  audiences: Audience[];
  path?: string;
  children?: SidebarLink[];
}

/** The sidebar table (docs/product.md), in display order. */
export const SIDEBAR: SidebarEntry[] = [
  { label: 'Get Started', path: '/get-started', audiences: ['everyone'] },
  { label: 'Create App', path: '/create-app', audiences: ['everyone'] },
  { label: 'My USSD Apps', path: '/app-list', audiences: ['nonAdmin'] },
  { label: 'USSD Apps', path: '/app-list-admin', audiences: ['admin'] },
  { label: 'My Custom Actions', path: '/custom-functions', audiences: ['everyone'] },
  { label: 'Templates', path: '/app-templates', audiences: ['everyone'] },
  { label: 'Buy USSD ShortCode', path: '/buy-shortcode', audiences: ['everyone'] },
  { label: 'My USSD Extensions', path: '/my-shortcodes', audiences: ['everyone'] },
  { label: 'WhatsApp Bots', path: '/whatsapp-bots', audiences: ['admin', 'chatbot'] },
  {
    label: 'Merchant Management',
    audiences: ['admin'],
    children: [
      { label: 'All Merchants', path: '/merchant/list' },
      { label: 'My Merchants', path: '/merchant/my-merchants' },
      { label: 'Register Merchant', path: '/merchant/register' },
    ],
  },
  { label: 'ShortCode Providers', path: '/shortcode-providers', audiences: ['admin'] },
  { label: 'Available USSD Extensions', path: '/provision-shortcode', audiences: ['admin'] },
  {
    label: 'User Management',
    audiences: ['superAdmin'],
    children: [
      { label: 'All Users', path: '/admin/list' },
      { label: 'Create Admin', path: '/admin/create' },
    ],
  },
  { label: 'Manage Merchant Account', path: '/merchant/manage-account', audiences: ['merchant'] },
  { label: 'Merchant Transactions', path: '/merchant/trxns', audiences: ['merchant'] },
  { label: 'Account Billing', path: '/account-billing', audiences: ['everyone'] },
];

export function getSidebar(subject: RoleSubject): SidebarEntry[] {
  return SIDEBAR.filter((entry) => entry.audiences.some((a) => isInAudience(a, subject)));
}
