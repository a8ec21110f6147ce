/**
 * Who a user is and which sidebar entries each kind of user sees (docs/product.md, Roles and the sidebar).
 * The web sidebar, the server's role guard and the unit test that checks that table all read this file.
 */
/**
 * `agent`: a person an account's owner added to answer the account's inbox (docs/inbox.md, "Agents"); the user's
 * `agentOf` names the owner. An agent is in no audience but `agent`: the inbox, their own profile, nothing else.
 */
export const USER_TYPES = ['user', 'internal_admin', 'merchant', 'agent'] as const;
export type UserType = (typeof USER_TYPES)[number];

/** Role names kept on a user. ADMIN..SUPPORT are the roles offered on admin creation. */
export const ROLE_NAMES = ['ADMIN', 'MERCHANT', 'DEVELOPER', 'SUPPORT', 'CHATBOT', 'super_admin'] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

/**
 * Who may call a route or see a sidebar entry: a kind of account, or an admin whose roles give a permission of
 * the role table below (`'subscription.manage'`: an admin with ADMIN or super_admin). `ownAppsOnly` is every
 * account that sees only the apps it builds (no `tenantApp.read`); `admin` is any admin, whatever their roles.
 * `everyone` is every account, not its agents: an agent is only ever in `agent` (a route or an entry open to
 * agents names it: `guard('everyone', 'agent')`).
 */
export type Audience = 'everyone' | 'ownAppsOnly' | 'admin' | 'chatbot' | 'superAdmin' | 'merchant' | 'agent' | Permission;

export interface RoleSubject {
  userType: string;
  roles: readonly string[];
}

export interface Roles {
  isAdmin: boolean;
  isSuperAdmin: boolean;
  isChatbotUser: boolean;
  isMerchant: boolean;
  /** An account's inbox agent (userType `agent`): nothing but the inbox and their own profile. */
  isAgent: boolean;
  /** The remaining accounts: a label only. */
  isPrivateUser: boolean;
}

export function getRoles(subject: RoleSubject): Roles {
  const roles = new Set(subject.roles);
  const isAgent = subject.userType === 'agent';
  // An agent's roles count for nothing, whatever a row says.
  const isAdmin = !isAgent && (subject.userType === 'internal_admin' || roles.has('ADMIN'));
  const isSuperAdmin = isAdmin && roles.has('super_admin');
  const isChatbotUser = !isAgent && roles.has('CHATBOT');
  const isMerchant = subject.userType === 'merchant';
  return {
    isAdmin,
    isSuperAdmin,
    isChatbotUser,
    isMerchant,
    isAgent,
    isPrivateUser: !isAdmin && !isChatbotUser && !isMerchant && !isAgent,
  };
}

/** The single word the console shows and the login response carries as `data.role`. */
export function getRoleLabel(subject: RoleSubject): string {
  const r = getRoles(subject);
  if (r.isSuperAdmin) return 'super_admin';
  if (r.isAdmin) return 'ADMIN';
  if (r.isMerchant) return 'MERCHANT';
  if (r.isAgent) return 'AGENT';
  if (r.isChatbotUser) return 'CHATBOT';
  return 'USER';
}

export function isInAudience(audience: Audience, subject: RoleSubject): boolean {
  const r = getRoles(subject);
  if (r.isAgent) return audience === 'agent';
  switch (audience) {
    case 'agent':
      return false;
    case 'everyone':
      return true;
    case 'ownAppsOnly':
      return !hasAdminPermission(subject, 'tenantApp.read');
    case 'admin':
      return r.isAdmin;
    case 'chatbot':
      return r.isChatbotUser;
    case 'superAdmin':
      return r.isSuperAdmin;
    case 'merchant':
      return r.isMerchant;
    default:
      return hasAdminPermission(subject, audience);
  }
}

export interface SidebarLink {
  label: string;
  path: string;
  /** Narrower than the parent entry's: any one audience listed is enough. */
  audiences?: Audience[];
}
export interface SidebarEntry {
  label: string;
  /** Who sees it: any one audience listed is enough. */
  audiences: Audience[];
  path?: string;
  children?: SidebarLink[];
}

/** The sidebar table (docs/product.md), in display order; admin entries name the permission their screen needs. */
export const SIDEBAR: SidebarEntry[] = [
  { label: 'Get Started', path: '/get-started', audiences: ['everyone'] },
  { label: 'Create App', path: '/create-app', audiences: ['everyone'] },
  { label: 'My USSD Apps', path: '/app-list', audiences: ['ownAppsOnly'] },
  { label: 'USSD Apps', path: '/app-list-admin', audiences: ['tenantApp.read'] },
  { label: 'My Custom Actions', path: '/custom-functions', audiences: ['everyone'] },
  { label: 'Sub-flows', path: '/subflows', audiences: ['everyone'] },
  { label: 'Templates', path: '/app-templates', audiences: ['everyone'] },
  { label: 'Buy USSD ShortCode', path: '/buy-shortcode', audiences: ['everyone'] },
  { label: 'My USSD Extensions', path: '/my-shortcodes', audiences: ['everyone'] },
  { label: 'SMS Outbox', path: '/sms-outbox', audiences: ['everyone'] },
  { label: 'WhatsApp Bots', path: '/whatsapp-bots', audiences: ['bot.build', 'chatbot'] },
  { label: 'Inbox', path: '/inbox', audiences: ['everyone', 'agent'] },
  { label: 'Contacts', path: '/contacts', audiences: ['everyone'] },
  { label: 'Campaigns', path: '/campaigns', audiences: ['everyone'] },
  {
    label: 'Merchant Management',
    audiences: ['merchant.read', 'merchant.register'],
    children: [
      { label: 'All Merchants', path: '/merchant/list', audiences: ['merchant.read'] },
      { label: 'My Merchants', path: '/merchant/my-merchants', audiences: ['merchant.read'] },
      { label: 'Register Merchant', path: '/merchant/register', audiences: ['merchant.register'] },
    ],
  },
  { label: 'ShortCode Providers', path: '/shortcode-providers', audiences: ['shortcode.manage'] },
  { label: 'Available USSD Extensions', path: '/provision-shortcode', audiences: ['shortcode.manage', 'shortcode.provision'] },
  {
    label: 'User Management',
    audiences: ['admin.manage', 'audit.read'],
    children: [
      { label: 'All Users', path: '/admin/list', audiences: ['admin.manage'] },
      { label: 'Create Admin', path: '/admin/create', audiences: ['admin.manage'] },
      { label: 'Audit Log', path: '/admin/audit-log', audiences: ['audit.read'] },
    ],
  },
  { label: 'Contact Requests', path: '/admin/contact-requests', audiences: ['contactRequest.read'] },
  { label: 'Mail Outbox', path: '/admin/mail-outbox', audiences: ['mailOutbox.read'] },
  { label: 'Subscriber Data', path: '/admin/subscriber-data', audiences: ['subscriberData.manage'] },
  { label: 'Subscriptions', path: '/admin/subscriptions', audiences: ['subscription.read'] },
  { label: 'Manage Merchant Account', path: '/merchant/manage-account', audiences: ['merchant'] },
  { label: 'Merchant Transactions', path: '/merchant/trxns', audiences: ['merchant'] },
  { label: 'Account Billing', path: '/account-billing', audiences: ['everyone'] },
];

/** The entries (and, inside them, the links) a user sees. */
export function getSidebar(subject: RoleSubject): SidebarEntry[] {
  const sees = (audiences: Audience[]) => audiences.some((a) => isInAudience(a, subject));
  return SIDEBAR.filter((entry) => sees(entry.audiences)).map((entry) =>
    entry.children ? { ...entry, children: entry.children.filter((child) => !child.audiences || sees(child.audiences)) } : entry,
  );
}

/**
 * What each role may do (docs/product.md, Admin roles; docs/merchants.md for the merchant scopes). The server's
 * guard lets a route's audiences in (an admin audience is a permission below); the services then ask
 * {@link getPermissionScope} for the call's permission and the merchant it names, or {@link hasAdminPermission}
 * for reach over another account's objects.
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
  /** See any account's plan and subscription (the Subscriptions screen). */
  'subscription.read',
  /** Extend or activate any account's subscription: money. */
  'subscription.manage',
  /** The shortcode catalogue: providers and extensions. */
  'shortcode.manage',
  /** Give an account a dial string without payment: money. */
  'shortcode.provision',
  /** Let an account build WhatsApp bots (the CHATBOT role), or stop it. */
  'chatbotAccess.manage',
  /** Build WhatsApp bots of one's own without the CHATBOT role. */
  'bot.build',
  /** Read any account's apps, menus and versions (not their sessions). */
  'tenantApp.read',
  /** Change, deploy, roll back or delete any account's app and its menus, webhooks, functions and bots (audited). */
  'tenantApp.edit',
  /** Read any account's sessions, their inputs and logs, and the SMS sent to callers: callers' personal data. */
  'tenantSession.read',
  /** Change the featured templates; only from a signed-in session, never an API key (docs/api-keys.md). */
  'template.edit',
  /** Turning off another user's two-factor sign-in when they lost their device (docs/security.md). */
  'twoFactor.reset',
  /**
   * Read every mail the platform sent (the Mail Outbox): password-reset links of any account, an admin's too, so
   * only super admins hold it; an ADMIN holding it could take over a super admin's account.
   */
  'mailOutbox.read',
  /**
   * Export and erase one phone number's subscriber data in every account at once (docs/security.md, "Subscriber
   * data"): callers' personal data across tenants, and its irreversible erasure, so only super admins hold it.
   */
  'subscriberData.manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** `all` merchants, those `assigned` to the admin (My Merchants), or the user's `own` merchant. */
export type PermissionScope = 'all' | 'assigned' | 'own';

/** The rows of the role table: the admin roles, and merchant users (developers or not). */
export type PermissionHolder = 'super_admin' | 'ADMIN' | 'MERCHANT' | 'DEVELOPER' | 'SUPPORT' | 'merchantUser' | 'merchantDeveloper';

const EVERYTHING = Object.fromEntries(PERMISSIONS.map((p) => [p, 'all'])) as Record<Permission, PermissionScope>;

/**
 * The role table. Admin roles count only for admins (a merchant user's stored `MERCHANT` role is the login's
 * label, not the admin role); an admin holding several roles gets the widest scope of each permission. An admin
 * with none of these roles holds no row: they build their own apps like any account, nothing more.
 */
export const ROLE_PERMISSIONS: Record<PermissionHolder, Partial<Record<Permission, PermissionScope>>> = {
  /** Everything, and the only one who manages admins and reads the audit log. */
  super_admin: EVERYTHING,
  /** Runs the platform: billing, the shortcode catalogue and provisioning, chatbot access, every merchant, the featured templates. */
  ADMIN: {
    'merchant.read': 'all',
    'merchant.register': 'all',
    'merchant.update': 'all',
    'merchant.delete': 'all',
    'merchantUser.manage': 'all',
    'transaction.read': 'all',
    'app.cloneIntoMerchant': 'all',
    'contactRequest.read': 'all',
    'subscription.read': 'all',
    'subscription.manage': 'all',
    'shortcode.manage': 'all',
    'shortcode.provision': 'all',
    'chatbotAccess.manage': 'all',
    'bot.build': 'all',
    'tenantApp.read': 'all',
    'template.edit': 'all',
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
  /** Support engineering: reads, fixes and deploys any account's app, reads its sessions; builds for the assigned merchants. */
  DEVELOPER: {
    'merchant.read': 'assigned',
    'app.cloneIntoMerchant': 'assigned',
    'bot.build': 'all',
    'tenantApp.read': 'all',
    'tenantApp.edit': 'all',
    'tenantSession.read': 'all',
  },
  /**
   * Answers questions, read-only: accounts' subscriptions and apps, the assigned merchants and their
   * transactions, the contact requests. No money, no changes, and not the callers' session data.
   */
  SUPPORT: {
    'merchant.read': 'assigned',
    'transaction.read': 'assigned',
    'contactRequest.read': 'all',
    'subscription.read': 'all',
    'tenantApp.read': 'all',
  },
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

/**
 * Whether an admin's roles give the permission (over any merchant): the admin audiences of routes and sidebar
 * entries, and an admin's reach over other accounts' objects. Never true for a merchant user or an API key
 * (a key's account carries no admin role).
 */
export function hasAdminPermission(subject: RoleSubject, permission: Permission): boolean {
  return getRoles(subject).isAdmin && getPermissionScope(subject, permission) !== null;
}

/**
 * Whether the account builds apps (creates, clones, imports them, and builds bots): every account but a merchant
 * user who is not marked Developer. Such a user follows the company's transactions and sees no app
 * (docs/merchants.md); the merchant's apps are built by its developers and cloned in by its admins. An account's
 * inbox agent builds nothing.
 */
export function canBuildApps(subject: RoleSubject): boolean {
  const r = getRoles(subject);
  if (r.isAgent) return false;
  return !r.isMerchant || getPermissionScope(subject, 'merchantApp.build') === 'own';
}

/** The roles an admin may be given on Create Admin and Manage Admin (`GET /api/admin/role-types`). */
export const ADMIN_ROLE_CHOICES = ['ADMIN', 'MERCHANT', 'DEVELOPER', 'SUPPORT'] as const;
export type AdminRoleChoice = (typeof ADMIN_ROLE_CHOICES)[number];
