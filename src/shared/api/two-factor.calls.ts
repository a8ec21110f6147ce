import { z } from 'zod';
import { defineCall } from './contract';
import { envelopeSchema, messageSchema } from './envelope';
import {
  recoveryCodesSchema,
  rememberedDeviceSchema,
  resetTwoFactorBodySchema,
  revokeDeviceBodySchema,
  twoFactorCodeBodySchema,
  twoFactorDisableBodySchema,
  twoFactorLoginBodySchema,
  twoFactorLoginReplySchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
} from './two-factor.schema';

// Two-factor sign-in (src/shared/api/contract.ts; docs/security.md). Keys: ['auth', 'two-factor'] holds the
// status and, below it, the remembered devices.

/** POST /api/auth/login/two-factor: the second step; never sends the stored token, as it starts a session. */
export const loginWithTwoFactor = defineCall({
  method: 'POST',
  path: '/api/auth/login/two-factor',
  body: twoFactorLoginBodySchema,
  reply: twoFactorLoginReplySchema,
  auth: false,
});

/** GET /api/auth/two-factor: on or off, required or not, recovery codes left. */
export const getTwoFactorStatus = defineCall({
  method: 'GET',
  path: '/api/auth/two-factor',
  reply: envelopeSchema(twoFactorStatusSchema),
  key: ['auth', 'two-factor'],
});

/** POST /api/auth/two-factor/setup: a new secret and its QR code, pending until enabled. */
export const setupTwoFactor = defineCall({
  method: 'POST',
  path: '/api/auth/two-factor/setup',
  reply: envelopeSchema(twoFactorSetupSchema),
});

/** POST /api/auth/two-factor/enable: turns it on with a code of the new secret; the reply lists the recovery codes. */
export const enableTwoFactor = defineCall({
  method: 'POST',
  path: '/api/auth/two-factor/enable',
  body: twoFactorCodeBodySchema,
  reply: envelopeSchema(recoveryCodesSchema),
});

/** POST /api/auth/two-factor/disable: turns it off, with the password and a code. */
export const disableTwoFactor = defineCall({
  method: 'POST',
  path: '/api/auth/two-factor/disable',
  body: twoFactorDisableBodySchema,
  reply: messageSchema,
});

/** POST /api/auth/two-factor/recovery-codes: new recovery codes; the old ones stop working. */
export const regenerateRecoveryCodes = defineCall({
  method: 'POST',
  path: '/api/auth/two-factor/recovery-codes',
  body: twoFactorCodeBodySchema,
  reply: envelopeSchema(recoveryCodesSchema),
});

/** GET /api/auth/two-factor/devices: the devices that skip the second step. */
export const findRememberedDevices = defineCall({
  method: 'GET',
  path: '/api/auth/two-factor/devices',
  reply: envelopeSchema(z.array(rememberedDeviceSchema)),
  key: ['auth', 'two-factor', 'devices'],
});

/** POST /api/auth/two-factor/devices/revoke: the device asks for the second step again. */
export const revokeRememberedDevice = defineCall({
  method: 'POST',
  path: '/api/auth/two-factor/devices/revoke',
  body: revokeDeviceBodySchema,
  reply: messageSchema,
});

/** POST /api/admin/two-factor/reset: an admin turns a user's two-factor sign-in off (twoFactor.reset). */
export const resetTwoFactor = defineCall({
  method: 'POST',
  path: '/api/admin/two-factor/reset',
  body: resetTwoFactorBodySchema,
  reply: messageSchema,
});
