import { beforeAll, expect, it } from 'vitest';
import { describeDb } from '../../tests/support/test-db';
import { type SeededUser, seedUser, useTestApp, useUser } from '../../tests/support/test-app';
import { AGENT_REFUSED } from './plugins/guard';
import { seedApp, seedMenu } from '../../tests/support/seed-app';
import type { RouteAccess } from './plugins/route-table';
import { eq } from 'drizzle-orm';
import { apps, transactions, webhookDeliveries, webhooks } from '../db/schema';

/**
 * Who may call every route, written out by hand. The server's own route table (plugins/route-table.ts,
 * from each route's guard) must match it exactly: a new route without a line here, or a route whose guard
 * changed, fails this test. Public routes say why they are safe without a sign-in.
 */
/** Any signed-in account and its inbox agents: sign-out, who am I, the password, two-factor sign-in (plugins/guard.ts). */
const SIGNED_IN_AND_AGENTS: RouteAccess = ['everyone', 'agent'];
/** The inbox's calls: every account, and its agents. */
const INBOX_AGENTS: RouteAccess = ['everyone', 'agent'];

const ACCESS: Record<string, RouteAccess> = {
  'GET /api/health': 'public', // up/down and counters, nothing of any account
  'GET /livez': 'public', // the process answers, nothing more
  'GET /readyz': 'public', // up/down of the database, Redis and migrations, nothing of any account
  'GET /ussd/:appId/:environment': 'public', // gateway traffic; the app id (128 random bits) is the address
  'POST /ussd/:appId/:environment': 'public',
  'PUT /ussd/:appId/:environment': 'public',
  // The same with the app's gateway key (when its owner turned it on, requests without it answer 401).
  'GET /ussd/:appId/:environment/:key': 'public',
  'POST /ussd/:appId/:environment/:key': 'public',
  'PUT /ussd/:appId/:environment/:key': 'public',
  // A shared shortcode's gateway traffic: the provider's key (in the path or a header), an allowed address, or
  // the legacy flag admits it; otherwise 401/403 before any session (docs/shortcodes.md, "Provider keys").
  'GET /ussd/provider/:providerId': 'public',
  'POST /ussd/provider/:providerId': 'public',
  'PUT /ussd/provider/:providerId': 'public',
  'GET /ussd/provider/:providerId/:key': 'public',
  'POST /ussd/provider/:providerId/:key': 'public',
  'PUT /ussd/provider/:providerId/:key': 'public',
  'POST /ussd-emulator/:appId': 'public', // signed out: featured templates only, sessions bound to the caller
  'POST /api/auth/register': 'public',
  'POST /api/auth/login': 'public',
  'POST /api/merchant/login': 'public',
  'POST /api/auth/logout': SIGNED_IN_AND_AGENTS,
  'GET /api/auth/me': SIGNED_IN_AND_AGENTS,
  'GET /api/apiKeys': 'signedIn',
  'POST /api/apiKey/create': 'signedIn',
  'POST /api/apiKey/revoke': 'signedIn',
  'GET /api/account/retention': 'signedIn',
  'POST /api/account/retention': 'signedIn',
  'POST /api/auth/forgot-password': 'public',
  'POST /api/auth/reset-password': 'public', // the single-use reset token is the credential
  'POST /api/changePassword': SIGNED_IN_AND_AGENTS,
  'POST /api/auth/login/two-factor': 'public', // the single-use challenge from a password sign-in is the credential
  'GET /api/auth/two-factor': SIGNED_IN_AND_AGENTS,
  'POST /api/auth/two-factor/setup': SIGNED_IN_AND_AGENTS,
  'POST /api/auth/two-factor/enable': SIGNED_IN_AND_AGENTS,
  'POST /api/auth/two-factor/disable': SIGNED_IN_AND_AGENTS,
  'POST /api/auth/two-factor/recovery-codes': SIGNED_IN_AND_AGENTS,
  'GET /api/auth/two-factor/devices': SIGNED_IN_AND_AGENTS,
  'POST /api/auth/two-factor/devices/revoke': SIGNED_IN_AND_AGENTS,
  'POST /api/admin/two-factor/reset': ['twoFactor.reset'], // an admin's, super_admin only
  'POST /api/contactus': 'public',
  'GET /api/admin/contact-requests': ['contactRequest.read'],
  'GET /api/admin/mail-outbox': ['mailOutbox.read'],
  'POST /api/createApp': 'signedIn',
  'GET /api/getAllApps': 'signedIn',
  'POST /api/updateApp': 'signedIn',
  'POST /api/cloneApp': 'signedIn',
  'GET /api/getAppByAppId/:appId': 'signedIn',
  'GET /api/getAppGatewayTraffic/:appId': 'signedIn', // the app's builder (or an admin); another account's app: 404
  'POST /api/rotateAppGatewayKey/:appId': 'signedIn', // the app's builder (or an admin); another account's app: 404
  'POST /api/removeAppGatewayKey/:appId': 'signedIn',
  'GET /deleteApp/:appId': 'signedIn',
  'GET /api/exportApp/:appId': 'signedIn',
  'POST /api/importApp': 'signedIn',
  'GET /featuredTemplates': 'public', // the public template gallery
  'GET /api/getAllMenus/:appId': 'signedIn',
  'GET /api/getAllMenusLite/:appId': 'signedIn',
  'POST /api/createMenu': 'signedIn',
  'POST /api/updateMenu': 'signedIn',
  'GET /api/deleteMenu/:uniqueId': 'signedIn',
  'POST /api/saveMenuOrder': 'signedIn',
  'POST /api/saveMenuPositions': 'signedIn',
  'GET /api/deployChanges/:appId': 'signedIn',
  'GET /api/getAppVersions/:appId': 'signedIn',
  'GET /api/getAppVersion/:appId/:version': 'signedIn',
  'POST /api/rollbackVersion': 'signedIn',
  'GET /api/sandbox/accounts/:accountNumber': 'public', // the built-in demo bank's made-up balances
  'POST /streamLogs': 'signedIn',
  'POST /actionlogs/searchLogs': 'signedIn',
  'POST /actionlogs/clearLogs': 'signedIn',
  'POST /debug/userInputs': 'signedIn',
  'POST /debug/actionResults': 'signedIn',
  'POST /debug/sessionPath': 'signedIn',
  'GET /api/docs/javascript': 'signedIn',
  'GET /api/custom-actions': 'signedIn',
  'GET /api/template/custom-actions': 'signedIn',
  'GET /api/custom-action/:uuid': 'signedIn',
  'POST /api/custom-action/create': 'signedIn',
  'POST /api/custom-action/update-code': 'signedIn',
  'POST /api/custom-action/update-name': 'signedIn',
  'GET /api/custom-action/delete/:uuid': 'signedIn',
  'POST /api/custom-action/test': 'signedIn',
  'GET /dashboard/liveView/:appId': 'signedIn',
  'GET /api/dashboard/appDashboard/:appId': 'signedIn',
  'GET /api/dashboard/whatsappMessages/:appId': 'signedIn',
  'GET /api/dashboard/inbox/:appId': 'signedIn',
  'GET /api/dashboard/sessionHealth/:appId': 'signedIn',
  'GET /api/dashboard/sessionMessages/:appId': 'signedIn',
  'GET /dashboard/completedSessions/:appId': 'signedIn',
  'GET /dashboard/uncompletedSessions/:appId': 'signedIn',
  'POST /dashboard/search/export': 'signedIn',
  'POST /dashboard/search': 'signedIn',
  'GET /api/sms/outbox': 'signedIn',
  'GET /api/sms/replies': 'signedIn',
  'POST /api/sms/outbox/:smsId/reply': 'signedIn', // the account's own outbox message; another's answers 404 (sms-replies.int)
  // The SMS provider's notifications: the operator's secret in the address is the credential (sms-replies.int.test.ts).
  'POST /api/sms/callbacks/:provider/:token/:notification': 'public',
  'GET /api/apps/:appId/webhook': 'signedIn',
  'POST /api/apps/:appId/webhook': 'signedIn',
  'POST /api/apps/:appId/webhook/rotate-secret': 'signedIn',
  'POST /api/apps/:appId/webhook/test': 'signedIn',
  'GET /api/apps/:appId/webhook/deliveries': 'signedIn',
  'POST /api/apps/:appId/webhook/deliveries/:deliveryId/redeliver': 'signedIn',
  // The signed-in account's own contacts only; another account's contact id answers 404 (contacts.int.test.ts).
  'GET /api/contacts': 'signedIn',
  'GET /api/contacts/:contactId': 'signedIn',
  // The keys of the account's own contacts' attributes (contact-attribute-keys.int.test.ts).
  'GET /api/contacts/attribute-keys': 'signedIn',
  'POST /api/contacts/:contactId': 'signedIn',
  'DELETE /api/contacts/:contactId': 'signedIn',
  // Export and CSV import of the account's own contacts; another account's import id answers 404 (contact-imports.int.test.ts).
  'POST /api/contacts/export': 'signedIn',
  'POST /api/contacts/imports/preview': 'signedIn',
  'POST /api/contacts/imports': 'signedIn',
  'GET /api/contacts/imports/:importId': 'signedIn',
  'POST /api/contacts/imports/:importId/errors': 'signedIn',
  // A number's subscriber data: the signed-in account's own only (every account, not its agents; no API key); another
  // account's erasure id answers 404, and nothing of another account is counted, exported or erased
  // (subscriber-data.int.test.ts). Every account's at once: `subscriberData.manage` (super admins).
  'POST /api/subscriber-data/summary': 'signedIn',
  'POST /api/subscriber-data/export': 'signedIn',
  'POST /api/subscriber-data/erasures': 'signedIn',
  'GET /api/subscriber-data/erasures/:erasureId': 'signedIn',
  'POST /api/admin/subscriber-data/summary': ['subscriberData.manage'],
  'POST /api/admin/subscriber-data/export': ['subscriberData.manage'],
  'POST /api/admin/subscriber-data/erasures': ['subscriberData.manage'],
  'GET /api/admin/subscriber-data/erasures/:erasureId': ['subscriberData.manage'],
  // Audiences and campaigns: the account's own; another account's id answers 404 (campaigns.int.test.ts).
  'GET /api/audiences': 'signedIn',
  'POST /api/audiences': 'signedIn',
  'GET /api/apps/:appId/test-cases': 'signedIn',
  'POST /api/apps/:appId/test-cases': 'signedIn',
  'POST /api/apps/:appId/test-cases/record': 'signedIn',
  'POST /api/apps/:appId/test-cases/run': 'signedIn',
  'PUT /api/apps/:appId/test-cases/:caseId': 'signedIn',
  'DELETE /api/apps/:appId/test-cases/:caseId': 'signedIn',
  // Sub-flows: the account's own; another account's id answers 404 (subflows.int.test.ts and the foreign-id list).
  'GET /api/subflows': 'signedIn',
  'POST /api/subflows': 'signedIn',
  'GET /api/subflows/:subflowId': 'signedIn',
  'PUT /api/subflows/:subflowId': 'signedIn',
  'DELETE /api/subflows/:subflowId': 'signedIn',
  'POST /api/audiences/reach': 'signedIn',
  'POST /api/audiences/:audienceId': 'signedIn',
  'DELETE /api/audiences/:audienceId': 'signedIn',
  'GET /api/campaigns': 'signedIn',
  'POST /api/campaigns': 'signedIn',
  'GET /api/campaigns/settings': 'signedIn',
  'GET /api/campaigns/events': 'signedIn',
  'GET /api/campaigns/:campaignId': 'signedIn',
  'POST /api/campaigns/:campaignId': 'signedIn',
  'POST /api/campaigns/:campaignId/schedule': 'signedIn',
  'POST /api/campaigns/:campaignId/pause': 'signedIn',
  'POST /api/campaigns/:campaignId/resume': 'signedIn',
  'POST /api/campaigns/:campaignId/cancel': 'signedIn',
  'DELETE /api/campaigns/:campaignId': 'signedIn',
  'GET /api/campaigns/:campaignId/preview': 'signedIn',
  'POST /api/campaigns/:campaignId/test': 'signedIn',
  'GET /api/campaigns/:campaignId/export': 'signedIn',
  // Files the account owns or builds with; another account's file id answers 404 (media.int.test.ts). Agents upload
  // the files they reply with, for their owner's account, and name no app (inbox-media.int.test.ts).
  'POST /api/media': INBOX_AGENTS,
  'GET /api/media/:mediaId': 'signedIn',
  'GET /media/:mediaId': 'public', // the signed, time-limited link is the credential (media.int.test.ts)
  'GET /payments/sandbox/:reference': 'public', // the checkout token in the link is the credential
  'POST /payments/sandbox/:reference/decide': 'public',
  'GET /api/payments/transactions': 'signedIn',
  'POST /api/payments/callback/:provider': 'public', // verified by the provider's signature
  // Admin routes name the permission of the role table (src/shared/roles.ts) an admin's roles must give.
  'POST /api/registerProvider': ['shortcode.manage'],
  'GET /api/getAllProviders': ['shortcode.manage', 'shortcode.provision'],
  'GET /api/deleteProvider/:uuid': ['shortcode.manage'],
  'POST /api/rotateProviderKey/:uuid': ['shortcode.manage'],
  'POST /api/updateProviderAccess/:uuid': ['shortcode.manage'],
  'POST /api/subscription/createShortCode': ['shortcode.manage'],
  'GET /api/getAllAvailableShortCodes': ['shortcode.manage', 'shortcode.provision'],
  'GET /api/deleteShortCode/:uuid': ['shortcode.manage'],
  'POST /api/subscription/provisionShortCode': ['shortcode.provision'],
  'GET /api/getAvailableShortCodes/:country': 'signedIn',
  'POST /api/subscription/buyshortcode': 'signedIn',
  'POST /api/subscription/renewShortcode': 'signedIn',
  'GET /api/myPurchasedShortCodes': 'signedIn',
  'GET /api/getShortCodeByUuid/:uuid': 'signedIn',
  'POST /api/connectAppToShortCode/': 'signedIn',
  // Merchants and admins (docs/merchants.md): the guard lets the audiences in, the role table narrows each call.
  'GET /api/merchant/list': ['merchant.read'],
  'GET /api/merchant/my-merchants': ['merchant.read'],
  'POST /api/merchant/create': ['merchant.register'],
  'POST /merchant/update': ['merchant.update'],
  'POST /merchant/delete': ['merchant.delete'],
  'GET /api/admin/merchants/:uuid': ['merchant.read'],
  'GET /api/merchant/profile': ['merchant'],
  'GET /api/merchant/:merchantUuid/users': ['merchant.read', 'merchant'],
  'POST /api/merchant/user/create': ['merchantUser.manage'],
  'POST /merchant/user/delete': ['merchantUser.manage'],
  'GET /api/merchant/transaction-types': ['transaction.read', 'merchant'],
  'POST /api/merchant/transactions': ['transaction.read', 'merchant'],
  'GET /api/admin/list': ['admin.manage'],
  'POST /api/admin/create': ['admin.manage'],
  'POST /api/admin/delete': ['admin.manage'],
  'GET /api/admin/profile/:adminUuid': ['admin.manage'],
  'GET /api/admin/role-types': ['admin.manage'],
  'POST /api/admin/update-profile': ['admin.manage'],
  'POST /api/admin/assign-merchant': ['admin.manage'],
  'POST /api/admin/unassign-merchant': ['admin.manage'],
  'GET /api/admin/audit-log': ['audit.read'],
  // Billing (docs/billing.md)
  'GET /api/subscription/current': 'signedIn',
  'GET /api/subscription/types': 'signedIn',
  'POST /api/subscription/makePayment': 'signedIn',
  'POST /api/subscription/creditAccount': 'signedIn',
  'POST /api/subscription/changePlan': 'signedIn',
  'GET /api/subscription/paymentHistory': 'signedIn',
  'GET /api/subscription/account': ['subscription.read'],
  'POST /api/subscription/extend': ['subscription.manage'],
  'POST /api/subscription/activate': ['subscription.manage'],
  // WhatsApp bots (docs/bots.md): chatbot users and admins who build bots; other accounts' bots and links answer 404 (bots.int.test.ts).
  'POST /api/chatbot/app/create': ['bot.build', 'chatbot'],
  'GET /api/chatbot/apps': ['bot.build', 'chatbot'],
  'GET /api/chatbot/app/:id': ['bot.build', 'chatbot'],
  'DELETE /api/chatbot/app/:id': ['bot.build', 'chatbot'],
  'POST /chatbot/app/update': ['bot.build', 'chatbot'],
  'POST /api/chatbot/app/:id/status': ['bot.build', 'chatbot'],
  'GET /api/chatbot/whatsapp/connector': ['bot.build', 'chatbot'],
  'POST /api/chatbot/whatsapp/link': ['bot.build', 'chatbot'],
  'POST /api/chatbot/whatsapp/embedded-signup': ['bot.build', 'chatbot'],
  'GET /api/chatbot/whatsapp/unlink/:id': ['bot.build', 'chatbot'],
  'GET /api/chatbot/whatsapp/list-numbers/:id': ['bot.build', 'chatbot'],
  'GET /api/chatbot/whatsapp/link-status/:id': ['bot.build', 'chatbot'],
  'POST /whatsapp-emulator/:appId': ['bot.build', 'chatbot'],
  'GET /whatsapp-emulator/:appId/statuses': ['bot.build', 'chatbot'],
  'POST /whatsapp-emulator/:appId/statuses': ['bot.build', 'chatbot'],
  // A linked number's message templates (docs/whatsapp-templates.md); another account's: 404 (whatsapp-templates.int.test.ts).
  'GET /api/chatbot/whatsapp/templates/:id': ['bot.build', 'chatbot'],
  'POST /api/chatbot/whatsapp/templates/:id': ['bot.build', 'chatbot'],
  'POST /api/chatbot/whatsapp/templates/:id/sync': ['bot.build', 'chatbot'],
  'DELETE /api/chatbot/whatsapp/template/:id': ['bot.build', 'chatbot'],
  'POST /api/chatbot/whatsapp/template/:id/status': ['bot.build', 'chatbot'],
  // Writing first (docs/bots.md): the account's own bots only (another's, an admin's included, answers 404; bot-conversations.int.test.ts).
  'GET /api/bots/:botId/conversations/window': ['bot.build', 'chatbot'],
  'POST /api/bots/:botId/conversations': ['bot.build', 'chatbot'],
  // The inbox (docs/inbox.md), every account's (bots' handoffs, USSD callback requests): its own conversations only,
  // for its owner and the agents the owner added; another account's id answers 404 (inbox.int.test.ts,
  // inbox-agents.int.test.ts).
  'GET /api/inbox/conversations': INBOX_AGENTS,
  'GET /api/inbox/conversations/:conversationId': INBOX_AGENTS,
  // A file of one of the conversation's messages: agents read the customer's files here, not on /api/media.
  'GET /api/inbox/conversations/:conversationId/media/:mediaId': INBOX_AGENTS,
  'POST /api/inbox/conversations/:conversationId/read': INBOX_AGENTS,
  'POST /api/inbox/conversations/:conversationId/replies': INBOX_AGENTS,
  'POST /api/inbox/conversations/:conversationId/notes': INBOX_AGENTS,
  'POST /api/inbox/conversations/:conversationId/assign': INBOX_AGENTS,
  'POST /api/inbox/conversations/:conversationId/close': INBOX_AGENTS,
  // Server-sent events of the account's own conversations, bounded per account and in all (inbox-events.int.test.ts).
  'GET /api/inbox/events': INBOX_AGENTS,
  'GET /api/inbox/agents': INBOX_AGENTS,
  // Adding and removing agents: the account's owner only; another account's agent answers 404.
  'POST /api/inbox/agents': 'signedIn',
  'DELETE /api/inbox/agents/:agentId': 'signedIn',
  // Saved replies: the account's agents read them; writing them is the owner's only; another account's id answers 404
  // (inbox-saved-replies.int.test.ts).
  'GET /api/inbox/saved-replies': INBOX_AGENTS,
  'POST /api/inbox/saved-replies': 'signedIn',
  'POST /api/inbox/saved-replies/:savedReplyId': 'signedIn',
  'DELETE /api/inbox/saved-replies/:savedReplyId': 'signedIn',
  'POST /api/admin/chatbot-access': ['chatbotAccess.manage'],
  // The simulated phone the simulator connector's QR opens: the link's secret (in the QR) is the credential.
  'GET /api/map-tiles': 'public', // the operator's tile setting for the location form's map, nothing of any account
  'GET /api/whatsapp-simulator/:linkId': 'public',
  'POST /api/whatsapp-simulator/:linkId/scan': 'public',
  'POST /api/whatsapp-simulator/:linkId/messages': 'public',
  'GET /api/whatsapp-simulator/:linkId/messages': 'public',
  'POST /api/whatsapp-simulator/:linkId/state': 'public',
  'POST /api/whatsapp-simulator/:linkId/receipts': 'public',
};

/** The routes that take an API key, and the scope each needs (docs/api-keys.md); every other route answers a key 403. */
const API_KEY_ROUTES: Record<string, 'read' | 'write'> = {
  'POST /api/createApp': 'write',
  'GET /api/getAllApps': 'read',
  'POST /api/updateApp': 'write',
  'GET /api/getAppByAppId/:appId': 'read',
  'GET /api/getAppGatewayTraffic/:appId': 'read',
  'GET /api/exportApp/:appId': 'read',
  'POST /api/importApp': 'write',
  'GET /api/getAllMenus/:appId': 'read',
  'GET /api/getAllMenusLite/:appId': 'read',
  'POST /api/createMenu': 'write',
  'POST /api/updateMenu': 'write',
  'GET /api/deleteMenu/:uniqueId': 'write',
  'POST /api/saveMenuOrder': 'write',
  'GET /api/deployChanges/:appId': 'write',
  'GET /api/getAppVersions/:appId': 'read',
  'GET /api/getAppVersion/:appId/:version': 'read',
  'POST /api/rollbackVersion': 'write',
  'POST /dashboard/search': 'read',
  'GET /api/contacts': 'read',
  'GET /api/contacts/:contactId': 'read',
  'GET /api/contacts/attribute-keys': 'read',
  'POST /api/contacts/:contactId': 'write',
  'DELETE /api/contacts/:contactId': 'write',
  'POST /api/contacts/export': 'read',
  'POST /api/contacts/imports/preview': 'write',
  'POST /api/contacts/imports': 'write',
  'GET /api/contacts/imports/:importId': 'read',
  'POST /api/contacts/imports/:importId/errors': 'read',
  'GET /api/bots/:botId/conversations/window': 'read',
  'POST /api/bots/:botId/conversations': 'write',
  'GET /api/audiences': 'read',
  'POST /api/audiences': 'write',
  'GET /api/apps/:appId/test-cases': 'read',
  'POST /api/apps/:appId/test-cases': 'write',
  'POST /api/apps/:appId/test-cases/record': 'write',
  'POST /api/apps/:appId/test-cases/run': 'read',
  'PUT /api/apps/:appId/test-cases/:caseId': 'write',
  'DELETE /api/apps/:appId/test-cases/:caseId': 'write',
  'GET /api/subflows': 'read',
  'POST /api/subflows': 'write',
  'GET /api/subflows/:subflowId': 'read',
  'PUT /api/subflows/:subflowId': 'write',
  'DELETE /api/subflows/:subflowId': 'write',
  'POST /api/audiences/reach': 'read',
  'POST /api/audiences/:audienceId': 'write',
  'DELETE /api/audiences/:audienceId': 'write',
  'GET /api/campaigns': 'read',
  'POST /api/campaigns': 'write',
  'GET /api/campaigns/settings': 'read',
  'GET /api/campaigns/events': 'read',
  'GET /api/campaigns/:campaignId': 'read',
  'POST /api/campaigns/:campaignId': 'write',
  'POST /api/campaigns/:campaignId/schedule': 'write',
  'POST /api/campaigns/:campaignId/pause': 'write',
  'POST /api/campaigns/:campaignId/resume': 'write',
  'POST /api/campaigns/:campaignId/cancel': 'write',
  'DELETE /api/campaigns/:campaignId': 'write',
  'GET /api/campaigns/:campaignId/preview': 'read',
  'POST /api/campaigns/:campaignId/test': 'write',
  'GET /api/campaigns/:campaignId/export': 'read',
};

describeDb('authorization, route by route', () => {
  const t = useTestApp();
  const owner = useUser(t);
  const stranger = useUser(t);
  const admin = useUser(t, { userType: 'internal_admin', roles: ['ADMIN'] });
  const superAdmin = useUser(t, { userType: 'internal_admin', roles: ['ADMIN', 'super_admin'] });
  const merchant = useUser(t, { userType: 'merchant' });
  const chatbot = useUser(t, { roles: ['CHATBOT'] });
  // Admins holding one role each, and none (the role table, docs/product.md Admin roles).
  const adminNoRole = useUser(t, { userType: 'internal_admin', roles: [] });
  const adminMerchant = useUser(t, { userType: 'internal_admin', roles: ['MERCHANT'] });
  const adminDeveloper = useUser(t, { userType: 'internal_admin', roles: ['DEVELOPER'] });
  const adminSupport = useUser(t, { userType: 'internal_admin', roles: ['SUPPORT'] });
  // An inbox agent of the chatbot user's account (docs/inbox.md, "Agents").
  const agent = {} as SeededUser;
  beforeAll(async () => {
    Object.assign(agent, await seedUser(t, { userType: 'agent', agentOf: chatbot.user.id, plan: 'TRIAL' }));
  });
  let appId: string;
  let menuId: string;
  let actionUuid: string;
  let purchaseUuid: string;
  let deliveryId: string;
  let apiKeyUuid: string;
  let subflowId: string;
  beforeAll(async () => {
    const key = await t.app.inject({
      method: 'POST',
      url: '/api/apiKey/create',
      headers: owner.auth,
      payload: { name: 'CI', scope: 'write' },
    });
    apiKeyUuid = key.json().data.uuid;
    appId = await seedApp(t, owner.auth);
    menuId = await seedMenu(t, owner.auth, appId, { userDefinedName: 'home', displayText: 'Welcome', terminate: true });
    subflowId = (await t.app.inject({ method: 'POST', url: '/api/subflows', headers: owner.auth, payload: { name: 'PIN check' } })).json()
      .data.id;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/custom-action/create',
      headers: owner.auth,
      payload: { actionName: 'fee', code: 'return 1' },
    });
    actionUuid = created.json().uuid;
    // A shortcode extension of the owner's, given by an admin.
    const extension = await t.app.inject({
      method: 'POST',
      url: '/api/subscription/createShortCode',
      headers: admin.auth,
      payload: { country: 'Ghana', shortCode: '*920*', provider: 'mtngh', method: 'POST', extension: '34', price: '150' },
    });
    const provisioned = await t.app.inject({
      method: 'POST',
      url: '/api/subscription/provisionShortCode',
      headers: admin.auth,
      payload: { extensionUuid: extension.json().data.uuid, userEmail: owner.email },
    });
    purchaseUuid = provisioned.json().data.uuid;
    // A webhook delivery of the owner's app (stored as it is: saving a URL resolves its host).
    await t.db.insert(webhooks).values({ appId, url: 'https://example.com/hook', events: ['session.completed'], secret: 'whsec_x' });
    const [delivery] = await t.db
      .insert(webhookDeliveries)
      .values({ appId, eventId: `evt_test_${appId}`, eventType: 'webhook.test', data: {}, occurredAt: new Date(), status: 'failed' })
      .returning();
    deliveryId = delivery!.id;
  });

  const declared = () => t.app.routeTable.filter((r) => !r.isHidden);
  /** Routes whose 200 is a stream held open (the inbox's events, inbox-events.int.test.ts). */
  const STREAM_ROUTES = new Set(['GET /api/inbox/events']);
  const fill = (url: string) =>
    url
      .replace(':appId', appId)
      .replace(':environment', 'test')
      .replace(':uniqueId', menuId)
      .replace(':uuid', actionUuid)
      .replace(':reference', 'ref')
      .replace(':provider', 'sandbox')
      .replace(':accountNumber', '1001')
      .replace(':providerId', 'mtngh')
      .replace(':country', 'Ghana')
      .replace(':merchantUuid', actionUuid)
      .replace(':adminUuid', actionUuid)
      .replace(':deliveryId', actionUuid);

  it('every declared route has a rule here, and its guard says the same', () => {
    const actual = Object.fromEntries(declared().map((r) => [`${r.method} ${r.url}`, r.access]));
    expect(actual).toEqual(ACCESS);
    // Hidden routes are only files: the API document's viewer and the console's build.
    for (const route of t.app.routeTable.filter((r) => r.isHidden)) expect(route.method, route.url).toBe('GET');
  });

  it('the routes that take an API key, and their scopes, are the ones written here', () => {
    const actual = Object.fromEntries(declared().flatMap((r) => (r.apiKeyScope ? [[`${r.method} ${r.url}`, r.apiKeyScope]] : [])));
    expect(actual).toEqual(API_KEY_ROUTES);
  });

  it('every guarded route answers 401 without a token or with a bad one, whatever the body', async () => {
    for (const route of declared().filter((r) => r.access !== 'public')) {
      for (const headers of [{}, { authorization: 'Bearer not-a-token' }, { authorization: `Basic ${owner.token}` }]) {
        const res = await t.app.inject({
          method: route.method as 'GET',
          url: fill(route.url),
          headers,
          ...(route.method === 'GET' ? {} : { payload: { junk: true } }),
        });
        expect(res.statusCode, `${route.method} ${route.url} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.json().status).toBe('05');
      }
    }
  });

  /**
   * Who is in each audience, written out by hand from the role table of docs/product.md (not derived from
   * src/shared/roles.ts, so a change there that the page does not say fails here).
   */
  const AUDIENCE_MEMBERS: Record<string, string[]> = {
    everyone: ['owner', 'merchant', 'chatbot', 'admin', 'superAdmin', 'adminNoRole', 'adminMerchant', 'adminDeveloper', 'adminSupport'],
    agent: ['agent'],
    merchant: ['merchant'],
    chatbot: ['chatbot'],
    'merchant.read': ['superAdmin', 'admin', 'adminMerchant', 'adminDeveloper', 'adminSupport'],
    'merchant.register': ['superAdmin', 'admin', 'adminMerchant'],
    'merchant.update': ['superAdmin', 'admin', 'adminMerchant'],
    'merchant.delete': ['superAdmin', 'admin'],
    'merchantUser.manage': ['superAdmin', 'admin', 'adminMerchant'],
    'transaction.read': ['superAdmin', 'admin', 'adminMerchant', 'adminSupport'],
    'contactRequest.read': ['superAdmin', 'admin', 'adminSupport'],
    'admin.manage': ['superAdmin'],
    'audit.read': ['superAdmin'],
    'subscription.read': ['superAdmin', 'admin', 'adminSupport'],
    'subscription.manage': ['superAdmin', 'admin'],
    'shortcode.manage': ['superAdmin', 'admin'],
    'shortcode.provision': ['superAdmin', 'admin'],
    'chatbotAccess.manage': ['superAdmin', 'admin'],
    'bot.build': ['superAdmin', 'admin', 'adminDeveloper'],
    'twoFactor.reset': ['superAdmin', 'admin'],
    'mailOutbox.read': ['superAdmin'],
    'subscriberData.manage': ['superAdmin'],
  };

  it('role-restricted routes answer 403 to every account outside their audiences, and let their audiences in', async () => {
    const accounts = { owner, merchant, chatbot, admin, superAdmin, adminNoRole, adminMerchant, adminDeveloper, adminSupport, agent };
    // Signing out is let in as any other call; it would end the accounts' sessions the later tests use.
    for (const route of declared().filter((r) => Array.isArray(r.access) && r.url !== '/api/auth/logout')) {
      for (const [name, account] of Object.entries(accounts)) {
        const audiences = route.access as string[];
        for (const audience of audiences) expect(AUDIENCE_MEMBERS[audience], `audience ${audience}`).toBeDefined();
        const allowed = audiences.some((audience) => AUDIENCE_MEMBERS[audience]?.includes(name));
        // A stream (server-sent events) never ends: its reply is read as soon as its head is written.
        const isStream = STREAM_ROUTES.has(`${route.method} ${route.url}`);
        const res = await t.app.inject({
          method: route.method as 'GET',
          url: fill(route.url),
          headers: account.auth,
          payloadAsStream: isStream,
        });
        if (isStream) res.stream().destroy();
        const label = `${route.method} ${route.url} as ${name}`;
        if (!allowed) expect(res.statusCode, label).toBe(403);
        // Past the guard: calls that need a body or an object's id answer this empty request 400 or 404.
        else expect([200, 400, 404], label).toContain(res.statusCode);
      }
    }
  });

  it("an inbox agent is refused every route but the inbox's and their own sign-in's, in the guard, before any handler", async () => {
    // `guard()` routes (any account) refuse agents: apps, menus, contacts, the account's files, billing, API keys...
    const refused = declared().filter((r) => r.access === 'signedIn');
    for (const name of [
      'POST /api/createApp',
      'GET /api/contacts',
      'GET /api/media/:mediaId',
      'GET /api/subscription/current',
      'POST /api/apiKey/create',
    ])
      expect(
        refused.some((r) => `${r.method} ${r.url}` === name),
        name,
      ).toBe(true);
    for (const route of refused) {
      const res = await t.app.inject({
        method: route.method as 'GET',
        url: fill(route.url),
        headers: agent.auth,
        ...(route.method === 'GET' ? {} : { payload: {} }),
      });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(res.json(), `${route.method} ${route.url}`).toMatchObject({ status: '05', message: AGENT_REFUSED });
    }
    // The owner's app is not theirs to run in the emulator either (its optional sign-in is the same guard).
    const emulated = await t.app.inject({
      method: 'POST',
      url: `/ussd-emulator/${appId}`,
      headers: agent.auth,
      payload: { session_id: 'a1', userdata: '*920*12#', msisdn: '233200000000', session_mode: 'start', network_id: 'MTN' },
    });
    expect(emulated.statusCode).toBe(403);
    // No free account: creating an app, a bot, an API key, all refused; and nothing was made.
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/chatbot/app/create', headers: agent.auth, payload: { appName: 'Mine' } }))
        .statusCode,
    ).toBe(403);
    expect((await t.db.select().from(apps).where(eq(apps.userId, agent.user.id))).length).toBe(0);
    // What an agent may do: who am I, the inbox's list and agents.
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: agent.auth });
    expect(me.json().data).toMatchObject({ role: 'AGENT', userType: 'agent' });
    const list = await t.app.inject({ method: 'GET', url: '/api/inbox/conversations', headers: agent.auth });
    expect(list.statusCode).toBe(200);
    const team = await t.app.inject({ method: 'GET', url: '/api/inbox/agents', headers: agent.auth });
    expect(team.json().data.map((a: { userId: string }) => a.userId)).toEqual([chatbot.user.id, agent.user.id]);
  });

  /** Calls that name one of the owner's objects, sent by another account: each must answer 404, never the object. */
  const foreign: Array<[string, () => { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: object }]> = [
    ['GET /api/getAppByAppId/:appId', () => ({ method: 'GET', url: `/api/getAppByAppId/${appId}` })],
    ['GET /api/apps/:appId/test-cases', () => ({ method: 'GET', url: `/api/apps/${appId}/test-cases` })],
    // A case that any screen passes: the list's deploy below runs the app's cases first.
    [
      'POST /api/apps/:appId/test-cases',
      () => ({
        method: 'POST',
        url: `/api/apps/${appId}/test-cases`,
        payload: { name: 'Home', steps: [{ input: '', expect: '' }] },
      }),
    ],
    [
      'POST /api/apps/:appId/test-cases/record',
      () => ({ method: 'POST', url: `/api/apps/${appId}/test-cases/record`, payload: { sessionId: 'none', name: 'x' } }),
    ],
    ['POST /api/apps/:appId/test-cases/run', () => ({ method: 'POST', url: `/api/apps/${appId}/test-cases/run` })],
    [
      'PUT /api/apps/:appId/test-cases/:caseId',
      () => ({
        method: 'PUT',
        url: `/api/apps/${appId}/test-cases/00000000-0000-4000-8000-000000000000`,
        payload: { name: 'Home', steps: [{ input: '', expect: '' }] },
      }),
    ],
    [
      'DELETE /api/apps/:appId/test-cases/:caseId',
      () => ({ method: 'DELETE', url: `/api/apps/${appId}/test-cases/00000000-0000-4000-8000-000000000000` }),
    ],
    ['GET /api/getAppGatewayTraffic/:appId', () => ({ method: 'GET', url: `/api/getAppGatewayTraffic/${appId}` })],
    [
      'POST /api/updateApp',
      () => ({
        method: 'POST',
        url: '/api/updateApp',
        payload: {
          appId,
          appName: 'Taken',
          description: 'x',
          country: 'ghana',
          useTemplateTag: false,
          connectionMode: 'new-shortcode',
          baseShortCode: '*920*',
          shortCode: '55#',
        },
      }),
    ],
    ['POST /api/cloneApp', () => ({ method: 'POST', url: '/api/cloneApp', payload: { appId, appName: 'Copy', description: 'x' } })],
    ['GET /api/exportApp/:appId', () => ({ method: 'GET', url: `/api/exportApp/${appId}` })],
    ['POST /api/rotateAppGatewayKey/:appId', () => ({ method: 'POST', url: `/api/rotateAppGatewayKey/${appId}` })],
    ['POST /api/removeAppGatewayKey/:appId', () => ({ method: 'POST', url: `/api/removeAppGatewayKey/${appId}` })],
    ['GET /api/getAllMenus/:appId', () => ({ method: 'GET', url: `/api/getAllMenus/${appId}` })],
    ['GET /api/subflows/:subflowId', () => ({ method: 'GET', url: `/api/subflows/${subflowId}` })],
    ['PUT /api/subflows/:subflowId', () => ({ method: 'PUT', url: `/api/subflows/${subflowId}`, payload: { name: 'Taken' } })],
    ['DELETE /api/subflows/:subflowId', () => ({ method: 'DELETE', url: `/api/subflows/${subflowId}` })],
    ['GET /api/getAllMenusLite/:appId', () => ({ method: 'GET', url: `/api/getAllMenusLite/${appId}` })],
    [
      'POST /api/createMenu',
      () => ({ method: 'POST', url: '/api/createMenu', payload: { appId, userDefinedName: 'intruder', displayText: 'x' } }),
    ],
    [
      'POST /api/updateMenu',
      () => ({
        method: 'POST',
        url: '/api/updateMenu',
        payload: { appId, uniqueId: menuId, userDefinedName: 'home', displayText: 'Hijacked' },
      }),
    ],
    ['GET /api/deleteMenu/:uniqueId', () => ({ method: 'GET', url: `/api/deleteMenu/${menuId}` })],
    ['POST /api/saveMenuOrder', () => ({ method: 'POST', url: '/api/saveMenuOrder', payload: { appId, menuIds: [menuId] } })],
    [
      'POST /api/saveMenuPositions',
      () => ({
        method: 'POST',
        url: '/api/saveMenuPositions',
        payload: { appId, direction: 'TB', positions: [{ uniqueId: menuId, x: 1, y: 2 }] },
      }),
    ],
    ['GET /api/deployChanges/:appId', () => ({ method: 'GET', url: `/api/deployChanges/${appId}` })],
    ['GET /api/getAppVersions/:appId', () => ({ method: 'GET', url: `/api/getAppVersions/${appId}` })],
    ['GET /api/getAppVersion/:appId/:version', () => ({ method: 'GET', url: `/api/getAppVersion/${appId}/1` })],
    ['POST /api/rollbackVersion', () => ({ method: 'POST', url: '/api/rollbackVersion', payload: { appId, version: 1 } })],
    ['POST /streamLogs', () => ({ method: 'POST', url: '/streamLogs', payload: { appId } })],
    ['POST /actionlogs/searchLogs', () => ({ method: 'POST', url: '/actionlogs/searchLogs', payload: { appId } })],
    ['POST /actionlogs/clearLogs', () => ({ method: 'POST', url: '/actionlogs/clearLogs', payload: { appId } })],
    ['POST /debug/userInputs', () => ({ method: 'POST', url: '/debug/userInputs', payload: { appId, sessionId: 's1' } })],
    ['POST /debug/actionResults', () => ({ method: 'POST', url: '/debug/actionResults', payload: { appId, sessionId: 's1' } })],
    ['POST /debug/sessionPath', () => ({ method: 'POST', url: '/debug/sessionPath', payload: { appId, sessionId: 's1' } })],
    ['GET /api/custom-action/:uuid', () => ({ method: 'GET', url: `/api/custom-action/${actionUuid}` })],
    [
      'POST /api/custom-action/update-code',
      () => ({ method: 'POST', url: '/api/custom-action/update-code', payload: { uuid: actionUuid, code: 'return 2' } }),
    ],
    [
      'POST /api/custom-action/update-name',
      () => ({ method: 'POST', url: '/api/custom-action/update-name', payload: { uuid: actionUuid, actionName: 'stolen' } }),
    ],
    ['GET /api/custom-action/delete/:uuid', () => ({ method: 'GET', url: `/api/custom-action/delete/${actionUuid}` })],
    ['GET /dashboard/liveView/:appId', () => ({ method: 'GET', url: `/dashboard/liveView/${appId}` })],
    ['GET /api/dashboard/appDashboard/:appId', () => ({ method: 'GET', url: `/api/dashboard/appDashboard/${appId}` })],
    ['GET /api/dashboard/whatsappMessages/:appId', () => ({ method: 'GET', url: `/api/dashboard/whatsappMessages/${appId}` })],
    ['GET /api/dashboard/inbox/:appId', () => ({ method: 'GET', url: `/api/dashboard/inbox/${appId}` })],
    ['GET /api/dashboard/sessionHealth/:appId', () => ({ method: 'GET', url: `/api/dashboard/sessionHealth/${appId}` })],
    ['GET /api/dashboard/sessionMessages/:appId', () => ({ method: 'GET', url: `/api/dashboard/sessionMessages/${appId}?sessionId=s1` })],
    ['GET /dashboard/completedSessions/:appId', () => ({ method: 'GET', url: `/dashboard/completedSessions/${appId}` })],
    ['GET /dashboard/uncompletedSessions/:appId', () => ({ method: 'GET', url: `/dashboard/uncompletedSessions/${appId}` })],
    [
      'POST /dashboard/search',
      () => ({ method: 'POST', url: '/dashboard/search', payload: { appId, searchBy: 'word', searchQuery: 'x' } }),
    ],
    [
      'POST /dashboard/search/export',
      () => ({ method: 'POST', url: '/dashboard/search/export', payload: { appId, searchBy: 'word', searchQuery: 'x' } }),
    ],
    ['GET /api/sms/outbox', () => ({ method: 'GET', url: `/api/sms/outbox?appId=${appId}` })],
    ['GET /api/apps/:appId/webhook', () => ({ method: 'GET', url: `/api/apps/${appId}/webhook` })],
    [
      'POST /api/apps/:appId/webhook',
      () => ({
        method: 'POST',
        url: `/api/apps/${appId}/webhook`,
        payload: { url: 'https://example.com/hook', events: ['session.completed'], isEnabled: true },
      }),
    ],
    ['POST /api/apps/:appId/webhook/rotate-secret', () => ({ method: 'POST', url: `/api/apps/${appId}/webhook/rotate-secret` })],
    ['POST /api/apps/:appId/webhook/test', () => ({ method: 'POST', url: `/api/apps/${appId}/webhook/test` })],
    ['GET /api/apps/:appId/webhook/deliveries', () => ({ method: 'GET', url: `/api/apps/${appId}/webhook/deliveries` })],
    [
      'POST /api/apps/:appId/webhook/deliveries/:deliveryId/redeliver',
      () => ({ method: 'POST', url: `/api/apps/${appId}/webhook/deliveries/${deliveryId}/redeliver` }),
    ],
    ['GET /api/payments/transactions', () => ({ method: 'GET', url: `/api/payments/transactions?appId=${appId}` })],
    [
      'POST /ussd-emulator/:appId',
      () => ({
        method: 'POST',
        url: `/ussd-emulator/${appId}`,
        payload: { session_id: 'x1', userdata: '*920*12#', msisdn: '233200000000', session_mode: 'start', network_id: 'MTN' },
      }),
    ],
    ['GET /api/getShortCodeByUuid/:uuid', () => ({ method: 'GET', url: `/api/getShortCodeByUuid/${purchaseUuid}` })],
    [
      'POST /api/subscription/renewShortcode',
      () => ({ method: 'POST', url: '/api/subscription/renewShortcode', payload: { id: purchaseUuid, leaseCount: 1 } }),
    ],
    [
      'POST /api/connectAppToShortCode/',
      () => ({ method: 'POST', url: '/api/connectAppToShortCode/', payload: { uuid: purchaseUuid, appId, linkedAppEnv: 'test' } }),
    ],
    ['POST /api/apiKey/revoke', () => ({ method: 'POST', url: '/api/apiKey/revoke', payload: { uuid: apiKeyUuid } })],
    ['GET /deleteApp/:appId', () => ({ method: 'GET', url: `/deleteApp/${appId}` })],
  ];

  /** The calls of the foreign-id list that only read an app's design (or copy it into the caller's account). */
  const READS_DESIGN = new Set([
    'GET /api/getAppByAppId/:appId',
    'GET /api/getAllMenus/:appId',
    'GET /api/getAllMenusLite/:appId',
    'POST /api/cloneApp',
    'GET /api/custom-action/:uuid',
  ]);

  it("another account's ids answer 404 on every call that names one, and change nothing", async () => {
    // An admin is another account too, unless a role of theirs reaches other accounts' apps: none, MERCHANT
    // (merchants only), and SUPPORT (which reads designs: READS_DESIGN, checked below) get 404 like a stranger.
    const callers = { stranger, adminNoRole, adminMerchant, adminSupport };
    for (const [caller, account] of Object.entries(callers)) {
      for (const [name, build] of foreign) {
        if (caller === 'adminSupport' && READS_DESIGN.has(name)) continue;
        const res = await t.app.inject({ ...build(), headers: account.auth });
        expect(res.statusCode, `${name} as ${caller}: ${res.body}`).toBe(404);
        expect(res.json().status, name).toBe('04');
      }
    }
    // The owner still has the app, the menu (unchanged) and the custom function; no copy went to the stranger.
    const menus = (await t.app.inject({ method: 'GET', url: `/api/getAllMenus/${appId}`, headers: owner.auth })).json().data;
    expect(menus).toMatchObject([{ uniqueId: menuId, userDefinedName: 'home', displayText: 'Welcome' }]);
    expect((await t.app.inject({ method: 'GET', url: `/api/custom-action/${actionUuid}`, headers: owner.auth })).json().data).toMatchObject(
      { actionName: 'fee', code: 'return 1' },
    );
    for (const account of [stranger, adminNoRole, adminMerchant])
      expect((await t.app.inject({ method: 'GET', url: '/api/getAllApps', headers: account.auth })).json().data).toEqual([]);
    // The owner's shortcode is still unconnected and the stranger holds none.
    const purchase = await t.app.inject({ method: 'GET', url: `/api/getShortCodeByUuid/${purchaseUuid}`, headers: owner.auth });
    expect(purchase.json().data).toMatchObject({ connected: false, status: 'active' });
    expect((await t.app.inject({ method: 'GET', url: '/api/myPurchasedShortCodes', headers: stranger.auth })).json().data).toEqual([]);
  });

  it('every call in the foreign-id list is a real call: the owner gets past the ownership check with the same request', async () => {
    // Without this, a malformed request in the list above could answer 404 for the wrong reason.
    // A case id or session that does not exist answers 404 for the owner too: those calls are left out here.
    const notReal = new Set([
      'GET /deleteApp/:appId',
      'GET /api/custom-action/delete/:uuid',
      'POST /api/apps/:appId/test-cases/record',
      'PUT /api/apps/:appId/test-cases/:caseId',
      'DELETE /api/apps/:appId/test-cases/:caseId',
      // The owner's delete would succeed: the stranger's 404 is what the list is for.
      'DELETE /api/subflows/:subflowId',
    ]);
    for (const [name, build] of foreign.filter(([n]) => !notReal.has(n))) {
      const res = await t.app.inject({ ...build(), headers: owner.auth });
      expect(res.statusCode, `${name}: ${res.body}`).not.toBe(404);
      expect(res.statusCode, `${name}: ${res.body}`).toBeLessThan(500);
    }
  });

  it('the foreign-id list covers every signed-in route that takes an app, menu or function id', () => {
    const covered = new Set(foreign.map(([name]) => name));
    // Admins' routes take ids of the shortcode catalogue (providers, extensions), which belongs to no account.
    const takesId = declared().filter((r) => r.access === 'signedIn' && /:(appId|uniqueId|uuid|subflowId)/.test(r.url));
    for (const route of takesId) expect(covered.has(`${route.method} ${route.url}`), `${route.method} ${route.url}`).toBe(true);
  });
  /** What each admin may do with an app another account builds: the role table's tenantApp.read, tenantApp.edit, tenantSession.read. */
  const APP_REACH: Array<[string, () => SeededUser, { read: boolean; edit: boolean; monitor: boolean }]> = [
    ['superAdmin', () => superAdmin, { read: true, edit: true, monitor: true }],
    ['ADMIN', () => admin, { read: true, edit: false, monitor: false }],
    ['DEVELOPER', () => adminDeveloper, { read: true, edit: true, monitor: true }],
    ['SUPPORT', () => adminSupport, { read: true, edit: false, monitor: false }],
    ['MERCHANT', () => adminMerchant, { read: false, edit: false, monitor: false }],
    ['no role', () => adminNoRole, { read: false, edit: false, monitor: false }],
  ];

  it.each(APP_REACH)(
    "an admin with %s reads, changes, deploys, monitors and deletes another account's app as the role table says",
    async (_, caller, reach) => {
      const auth = caller().auth;
      const app = await seedApp(t, owner.auth, { appName: 'Reach' });
      const menu = await seedMenu(t, owner.auth, app, { userDefinedName: 'home', displayText: 'Welcome', terminate: true });
      const call = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, headers: auth, payload });
      const expectReach = (res: { statusCode: number; body: string }, allowed: boolean, label: string) =>
        expect(res.statusCode, `${label}: ${res.body}`).toBe(allowed ? 200 : 404);

      expectReach(await call('GET', `/api/getAllMenus/${app}`), reach.read, 'read menus');
      const listed = (await call('GET', '/api/getAllApps')).json().data.map((a: { appId: string }) => a.appId);
      expect(listed.includes(app), 'listed').toBe(reach.read);
      expectReach(
        await call('POST', '/api/updateMenu', { appId: app, uniqueId: menu, userDefinedName: 'home', displayText: 'Changed' }),
        reach.edit,
        'update menu',
      );
      expectReach(await call('GET', `/api/deployChanges/${app}`), reach.edit, 'deploy');
      expectReach(await call('GET', `/dashboard/completedSessions/${app}`), reach.monitor, 'sessions');
      expectReach(await call('GET', `/api/dashboard/sessionHealth/${app}`), reach.monitor, 'session health');
      expectReach(await call('POST', '/debug/userInputs', { appId: app, sessionId: 's1' }), reach.monitor, 'session inputs');
      expectReach(await call('GET', `/deleteApp/${app}`), reach.edit, 'delete');
      // Refused calls changed nothing: the owner's menu reads as it was, and the app is still there.
      const left = await t.app.inject({ method: 'GET', url: `/api/getAllMenus/${app}`, headers: owner.auth });
      if (reach.edit) expect(left.statusCode).toBe(404);
      else expect(left.json().data).toMatchObject([{ uniqueId: menu, displayText: 'Welcome' }]);
    },
  );

  it("every account's payments list is for admins whose roles read all transactions; SUPPORT and DEVELOPER get their own", async () => {
    const [payment] = await t.db
      .insert(transactions)
      .values({
        userId: owner.user.id,
        reference: `ref-${appId}`,
        transactionType: 'debit',
        amount: '5.00',
        currency: 'GHS',
        status: 'SUCCESS',
      })
      .returning();
    const sees = async (account: SeededUser) =>
      (await t.app.inject({ method: 'GET', url: '/api/payments/transactions', headers: account.auth }))
        .json()
        .data.some((row: { id: string }) => row.id === payment!.id);
    expect(await sees(admin)).toBe(true);
    expect(await sees(superAdmin)).toBe(true);
    for (const account of [adminSupport, adminDeveloper, adminMerchant, adminNoRole, stranger]) expect(await sees(account)).toBe(false);
  });

  it("featured templates change only through a signed-in super_admin or ADMIN session, never an API key (even their owner's)", async () => {
    // A template as the seed makes them: owned by the super admin.
    const template = await seedApp(t, superAdmin.auth, { appName: 'Featured' });
    const menu = await seedMenu(t, superAdmin.auth, template, { userDefinedName: 'home', displayText: 'Hello', terminate: true });
    await t.db.update(apps).set({ isTemplate: true }).where(eq(apps.id, template));
    const keyOf = async (account: SeededUser) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/apiKey/create',
        headers: account.auth,
        payload: { name: 'k', scope: 'write' },
      });
      return { authorization: `Bearer ${res.json().key}` };
    };
    const edit = (headers: Record<string, string>, displayText: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/updateMenu',
        headers,
        payload: { appId: template, uniqueId: menu, userDefinedName: 'home', displayText },
      });
    const deploy = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: `/api/deployChanges/${template}`, headers });

    for (const [name, headers] of [
      ['super admin key', await keyOf(superAdmin)],
      ['ADMIN key', await keyOf(admin)],
      ["owner's key", await keyOf(owner)],
      ['DEVELOPER session', adminDeveloper.auth],
      ['SUPPORT session', adminSupport.auth],
      ['owner session', owner.auth],
    ] as const) {
      expect((await edit(headers, `By ${name}`)).statusCode, name).toBe(404);
      expect((await deploy(headers)).statusCode, name).toBe(404);
    }
    // Anyone still reads it (the gallery, the emulator, cloning), the key included.
    expect((await t.app.inject({ method: 'GET', url: `/api/getAllMenus/${template}`, headers: await keyOf(owner) })).statusCode).toBe(200);
    expect((await edit(superAdmin.auth, 'By the super admin')).statusCode).toBe(200);
    expect((await edit(admin.auth, 'By an ADMIN')).statusCode).toBe(200);
    expect((await deploy(admin.auth)).statusCode).toBe(200);
    const menus = (await t.app.inject({ method: 'GET', url: `/api/getAllMenus/${template}`, headers: owner.auth })).json().data;
    expect(menus).toMatchObject([{ uniqueId: menu, displayText: 'By an ADMIN' }]);
  });
});
