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
      { label: 'Audit Log', path: '/admin/audit-log' },
    ],
  },
  { label: 'Contact Requests', path: '/admin/contact-requests', audiences: ['admin'] },
  { label: 'Subscriptions', path: '/admin/subscriptions', audiences: ['admin'] },
  { label: 'Manage Merchant Account', path: '/merchant/manage-account', audiences: ['merchant'] },
  { label: 'Merchant Transactions', path: '/merchant/trxns', audiences: ['merchant'] },
  { label: 'Account Billing', path: '/account-billing', audiences: ['everyone'] },
];

export function getSidebar(subject: RoleSubject): SidebarEntry[] {
  return SIDEBAR.filter((entry) => entry.audiences.some((a) => isInAudience(a, subject)));
}

/**
 * What each role may do in the merchant and admin area, and over which merchants (docs/merchants.md). The
 * server's guard lets the audiences in (`admin`, `merchant`, `superAdmin`); the services then ask
 * {@link getPermissionScope} for the call's permission and the merchant it names.
 */
export const PERMISSIONS = [
  'merchant.read',
  'merchant.register',
  'merchant.update',
  'merchant.delete',
  'merchantUser.manage',
  'transaction.read',
  'app.cloneIntoMerchant',
  'merchantApp.build',
  'contactRequest.read',
  'admin.manage',
  'audit.read',
  /** Turning off another user's two-factor sign-in when they lost their device (docs/security.md). */
  'twoFactor.reset',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** `all` merchants, those `assigned` to the admin (My Merchants), or the user's `own` merchant. */
export type PermissionScope = 'all' | 'assigned' | 'own';

/** The rows of the role table: the admin roles, and merchant users (developers or not). */
export type PermissionHolder = 'super_admin' | 'ADMIN' | 'MERCHANT' | 'DEVELOPER' | 'SUPPORT' | 'merchantUser' | 'merchantDeveloper';

const EVERYTHING = Object.fromEntries(PERMISSIONS.map((p) => [p, 'all'])) as Record<Permission, PermissionScope>;

/**
 * The role table. Admin roles count only for admins (a merchant user's stored `MERCHANT` role is the login's
 * label, not the admin role); an admin holding several roles gets the widest scope of each permission.
 */
export const ROLE_PERMISSIONS: Record<PermissionHolder, Partial<Record<Permission, PermissionScope>>> = {
  super_admin: EVERYTHING,
  /** Runs the platform's merchants: every merchant, its users, transactions and apps. */
  ADMIN: {
    'merchant.read': 'all',
    'merchant.register': 'all',
    'merchant.update': 'all',
    'merchant.delete': 'all',
    'merchantUser.manage': 'all',
    'transaction.read': 'all',
    'app.cloneIntoMerchant': 'all',
    'contactRequest.read': 'all',
    'twoFactor.reset': 'all',
  },
  /** An account manager: registers merchants and looks after the ones assigned to them. */
  MERCHANT: {
    'merchant.read': 'assigned',
    'merchant.register': 'all',
    'merchant.update': 'assigned',
    'merchantUser.manage': 'assigned',
    'transaction.read': 'assigned',
    'app.cloneIntoMerchant': 'assigned',
  },
  /** Builds apps for the assigned merchants and clones them into their accounts. */
  DEVELOPER: { 'merchant.read': 'assigned', 'app.cloneIntoMerchant': 'assigned' },
  /** Answers the assigned merchants' questions: reads them and their transactions, and the contact requests. */
  SUPPORT: { 'merchant.read': 'assigned', 'transaction.read': 'assigned', 'contactRequest.read': 'all' },
  merchantUser: { 'merchant.read': 'own', 'transaction.read': 'own' },
  /** A merchant user marked Developer also builds the merchant's apps. */
  merchantDeveloper: { 'merchant.read': 'own', 'transaction.read': 'own', 'merchantApp.build': 'own' },
};

const SCOPE_WIDTH: Record<PermissionScope, number> = { own: 0, assigned: 1, all: 2 };

/** Which rows of the role table a user holds. A merchant user marked Developer carries the `DEVELOPER` role. */
export function getPermissionHolders(subject: RoleSubject): PermissionHolder[] {
  const r = getRoles(subject);
  if (r.isMerchant) return [subject.roles.includes('DEVELOPER') ? 'merchantDeveloper' : 'merchantUser'];
  if (!r.isAdmin) return [];
  const adminRoles: PermissionHolder[] = ['super_admin', 'ADMIN', 'MERCHANT', 'DEVELOPER', 'SUPPORT'];
  return adminRoles.filter((role) => subject.roles.includes(role));
}

/** The widest scope any of the user's roles gives for a permission; null when none gives it. */
export function getPermissionScope(subject: RoleSubject, permission: Permission): PermissionScope | null {
  let best: PermissionScope | null = null;
  for (const holder of getPermissionHolders(subject)) {
    const scope = ROLE_PERMISSIONS[holder][permission];
    if (scope && (!best || SCOPE_WIDTH[scope] > SCOPE_WIDTH[best])) best = scope;
  }
  return best;
}

/** The roles an admin may be given on Create Admin and Manage Admin (`GET /api/admin/role-types`). */
export const ADMIN_ROLE_CHOICES = ['ADMIN', 'MERCHANT', 'DEVELOPER', 'SUPPORT'] as const;
export type AdminRoleChoice = (typeof ADMIN_ROLE_CHOICES)[number];
