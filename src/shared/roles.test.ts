import { describe, expect, it } from 'vitest';
import {
  canBuildApps,
  getPermissionScope,
  getRoleLabel,
  getRoles,
  getSidebar,
  hasAdminPermission,
  isInAudience,
  SIDEBAR,
  type RoleSubject,
} from './roles';

// The sidebar table of docs/product.md (Roles and the sidebar), written out by hand from that page (not derived from SIDEBAR).
const EVERYONE = [
  'Get Started',
  'Create App',
  'My Custom Actions',
  'Sub-flows',
  'Templates',
  'Buy USSD ShortCode',
  'My USSD Extensions',
  'SMS Outbox',
  'Inbox',
  'Contacts',
  'Campaigns',
  'Account Billing',
];
const NON_ADMINS = ['My USSD Apps'];
const ADMINS = [
  'USSD Apps',
  'Merchant Management',
  'ShortCode Providers',
  'Available USSD Extensions',
  'WhatsApp Bots',
  'Contact Requests',
  'Subscriptions',
];
const CHATBOT_USERS = ['WhatsApp Bots'];
const SUPER_ADMINS = ['User Management', 'Mail Outbox', 'Subscriber Data'];
const MERCHANTS = ['Manage Merchant Account', 'Merchant Transactions'];

const SUBJECTS = {
  private: { userType: 'user', roles: [] },
  admin: { userType: 'internal_admin', roles: ['ADMIN'] },
  superAdmin: { userType: 'internal_admin', roles: ['ADMIN', 'super_admin'] },
  chatbot: { userType: 'user', roles: ['CHATBOT'] },
  merchant: { userType: 'merchant', roles: ['MERCHANT'] },
  // Admins holding one role each, and none (docs/product.md, Admin roles).
  adminNoRole: { userType: 'internal_admin', roles: [] },
  adminMerchant: { userType: 'internal_admin', roles: ['MERCHANT'] },
  adminDeveloper: { userType: 'internal_admin', roles: ['DEVELOPER'] },
  adminSupport: { userType: 'internal_admin', roles: ['SUPPORT'] },
  // An account's inbox agent: a stray role on the row gives nothing.
  agent: { userType: 'agent', roles: ['ADMIN', 'CHATBOT'] },
} satisfies Record<string, RoleSubject>;

const EXPECTED: Record<keyof typeof SUBJECTS, string[]> = {
  private: [...EVERYONE, ...NON_ADMINS],
  admin: [...EVERYONE, ...ADMINS],
  superAdmin: [...EVERYONE, ...ADMINS, ...SUPER_ADMINS],
  chatbot: [...EVERYONE, ...NON_ADMINS, ...CHATBOT_USERS],
  merchant: [...EVERYONE, ...NON_ADMINS, ...MERCHANTS],
  adminNoRole: [...EVERYONE, ...NON_ADMINS],
  adminMerchant: [...EVERYONE, ...NON_ADMINS, 'Merchant Management'],
  adminDeveloper: [...EVERYONE, 'USSD Apps', 'WhatsApp Bots', 'Merchant Management'],
  adminSupport: [...EVERYONE, 'USSD Apps', 'Merchant Management', 'Contact Requests', 'Subscriptions'],
  agent: ['Inbox'],
};

const labelsOf = (subject: RoleSubject) => getSidebar(subject).map((entry) => entry.label);
const sorted = (labels: string[]) => [...labels].sort();

describe('getRoles (who a user is)', () => {
  it('makes userType internal_admin an admin', () => {
    expect(getRoles({ userType: 'internal_admin', roles: [] }).isAdmin).toBe(true);
  });
  it('makes role ADMIN an admin whatever the user type', () => {
    expect(getRoles({ userType: 'user', roles: ['ADMIN'] }).isAdmin).toBe(true);
  });
  it('makes a super admin only of an admin whose roles include super_admin', () => {
    expect(getRoles(SUBJECTS.superAdmin).isSuperAdmin).toBe(true);
    expect(getRoles({ userType: 'user', roles: ['super_admin'] }).isSuperAdmin).toBe(false);
  });
  it('makes role CHATBOT a chatbot user and userType merchant a merchant', () => {
    expect(getRoles(SUBJECTS.chatbot).isChatbotUser).toBe(true);
    expect(getRoles(SUBJECTS.merchant).isMerchant).toBe(true);
  });
  it('labels only the remaining accounts private users', () => {
    expect(getRoles(SUBJECTS.private).isPrivateUser).toBe(true);
    for (const kind of ['admin', 'superAdmin', 'chatbot', 'merchant', 'agent'] as const)
      expect(getRoles(SUBJECTS[kind]).isPrivateUser).toBe(false);
  });
  it('makes userType agent an agent whose roles count for nothing, who builds no app', () => {
    expect(getRoles(SUBJECTS.agent)).toMatchObject({ isAgent: true, isAdmin: false, isChatbotUser: false });
    expect(getRoleLabel(SUBJECTS.agent)).toBe('AGENT');
    expect(canBuildApps(SUBJECTS.agent)).toBe(false);
    expect(hasAdminPermission(SUBJECTS.agent, 'bot.build')).toBe(false);
    expect(isInAudience('everyone', SUBJECTS.agent)).toBe(false);
    expect(isInAudience('agent', SUBJECTS.agent)).toBe(true);
    expect(isInAudience('agent', SUBJECTS.private)).toBe(false);
  });
});

describe('getSidebar (who sees which entry)', () => {
  for (const kind of Object.keys(SUBJECTS) as (keyof typeof SUBJECTS)[]) {
    it(`shows a ${kind} user exactly the table's entries`, () => {
      const labels = labelsOf(SUBJECTS[kind]);
      expect(new Set(labels).size).toBe(labels.length);
      expect(sorted(labels)).toEqual(sorted(EXPECTED[kind]));
    });
  }

  it('shows admins USSD Apps and never My USSD Apps, and non-admins the reverse', () => {
    expect(labelsOf(SUBJECTS.admin)).toContain('USSD Apps');
    expect(labelsOf(SUBJECTS.admin)).not.toContain('My USSD Apps');
    expect(labelsOf(SUBJECTS.private)).toContain('My USSD Apps');
    expect(labelsOf(SUBJECTS.private)).not.toContain('USSD Apps');
  });

  it('shows WhatsApp Bots once to an admin who is also a chatbot user', () => {
    const labels = labelsOf({ userType: 'internal_admin', roles: ['ADMIN', 'CHATBOT'] });
    expect(labels.filter((label) => label === 'WhatsApp Bots')).toHaveLength(1);
  });

  it('shows only the Merchant Management links the admin role gives', () => {
    const childrenOf = (subject: RoleSubject, label: string) =>
      getSidebar(subject)
        .find((entry) => entry.label === label)
        ?.children?.map((child) => child.label);
    expect(childrenOf(SUBJECTS.admin, 'Merchant Management')).toEqual(['All Merchants', 'My Merchants', 'Register Merchant']);
    expect(childrenOf(SUBJECTS.adminMerchant, 'Merchant Management')).toEqual(['All Merchants', 'My Merchants', 'Register Merchant']);
    expect(childrenOf(SUBJECTS.adminSupport, 'Merchant Management')).toEqual(['All Merchants', 'My Merchants']);
    expect(childrenOf(SUBJECTS.superAdmin, 'User Management')).toEqual(['All Users', 'Create Admin', 'Audit Log']);
  });

  it('nests the Merchant Management and User Management entries', () => {
    const children = (label: string) => SIDEBAR.find((entry) => entry.label === label)?.children?.map((child) => child.label);
    expect(children('Merchant Management')).toEqual(['All Merchants', 'My Merchants', 'Register Merchant']);
    expect(children('User Management')).toEqual(['All Users', 'Create Admin', 'Audit Log']);
  });

  it('points every entry at its route', () => {
    const paths = Object.fromEntries(
      SIDEBAR.flatMap((entry) => [
        ...(entry.path ? [[entry.label, entry.path]] : []),
        ...(entry.children ?? []).map((c) => [c.label, c.path]),
      ]),
    );
    expect(paths).toEqual({
      'Get Started': '/get-started',
      'Create App': '/create-app',
      'My USSD Apps': '/app-list',
      'USSD Apps': '/app-list-admin',
      'My Custom Actions': '/custom-functions',
      'Sub-flows': '/subflows',
      Templates: '/app-templates',
      'Buy USSD ShortCode': '/buy-shortcode',
      'My USSD Extensions': '/my-shortcodes',
      'SMS Outbox': '/sms-outbox',
      'WhatsApp Bots': '/whatsapp-bots',
      Inbox: '/inbox',
      Contacts: '/contacts',
      Campaigns: '/campaigns',
      'All Merchants': '/merchant/list',
      'My Merchants': '/merchant/my-merchants',
      'Register Merchant': '/merchant/register',
      'ShortCode Providers': '/shortcode-providers',
      'Available USSD Extensions': '/provision-shortcode',
      'All Users': '/admin/list',
      'Create Admin': '/admin/create',
      'Audit Log': '/admin/audit-log',
      'Contact Requests': '/admin/contact-requests',
      'Mail Outbox': '/admin/mail-outbox',
      'Subscriber Data': '/admin/subscriber-data',
      Subscriptions: '/admin/subscriptions',
      'Manage Merchant Account': '/merchant/manage-account',
      'Merchant Transactions': '/merchant/trxns',
      'Account Billing': '/account-billing',
    });
  });
});

describe('the merchant and admin role table', () => {
  const admin = (...roles: string[]) => ({ userType: 'internal_admin', roles });
  it.each([
    [admin('ADMIN', 'super_admin'), 'admin.manage', 'all'],
    [admin('ADMIN'), 'admin.manage', null],
    [admin('ADMIN'), 'merchant.delete', 'all'],
    [admin('MERCHANT'), 'merchant.update', 'assigned'],
    [admin('MERCHANT'), 'merchant.delete', null],
    [admin('SUPPORT', 'ADMIN'), 'transaction.read', 'all'],
    [admin('DEVELOPER'), 'app.cloneIntoMerchant', 'assigned'],
    [admin('SUPPORT'), 'contactRequest.read', 'all'],
    [admin(), 'merchant.read', null],
    // A merchant user's stored MERCHANT role is their login's label, never the admin role.
    [{ userType: 'merchant', roles: ['MERCHANT'] }, 'merchant.update', null],
    [{ userType: 'merchant', roles: ['MERCHANT'] }, 'transaction.read', 'own'],
    [{ userType: 'merchant', roles: ['MERCHANT', 'DEVELOPER'] }, 'merchantApp.build', 'own'],
    [{ userType: 'merchant', roles: ['MERCHANT'] }, 'merchantApp.build', null],
    // super_admin counts only for admins.
    [{ userType: 'user', roles: ['super_admin'] }, 'admin.manage', null],
    // Least privilege: money and changes to other accounts belong to the roles that need them.
    [admin('ADMIN'), 'subscription.manage', 'all'],
    [admin('SUPPORT'), 'subscription.read', 'all'],
    [admin('SUPPORT'), 'subscription.manage', null],
    [admin('SUPPORT'), 'tenantApp.edit', null],
    [admin('SUPPORT'), 'tenantSession.read', null],
    [admin('DEVELOPER'), 'tenantApp.edit', 'all'],
    [admin('DEVELOPER'), 'shortcode.provision', null],
    [admin('MERCHANT'), 'chatbotAccess.manage', null],
    [admin(), 'tenantApp.read', null],
    [admin('ADMIN'), 'template.edit', 'all'],
    [admin('DEVELOPER'), 'template.edit', null],
  ] as const)('%j may %s: %s', (subject, permission, scope) => {
    expect(getPermissionScope(subject, permission)).toBe(scope);
  });
});

describe('hasAdminPermission (admin audiences and reach over other accounts)', () => {
  it('is true only for an admin whose roles give the permission', () => {
    expect(hasAdminPermission({ userType: 'internal_admin', roles: ['DEVELOPER'] }, 'tenantApp.edit')).toBe(true);
    expect(hasAdminPermission({ userType: 'internal_admin', roles: [] }, 'tenantApp.read')).toBe(false);
  });
  it('is never true for a merchant user, whatever their own scope', () => {
    expect(getPermissionScope({ userType: 'merchant', roles: ['MERCHANT'] }, 'merchant.read')).toBe('own');
    expect(hasAdminPermission({ userType: 'merchant', roles: ['MERCHANT'] }, 'merchant.read')).toBe(false);
  });
  it("is never true for an API key's account (its admin roles and user type are dropped)", () => {
    expect(hasAdminPermission({ userType: 'user', roles: ['DEVELOPER', 'SUPPORT'] }, 'tenantApp.read')).toBe(false);
  });
});
