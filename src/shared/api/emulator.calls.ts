import { z } from 'zod';
import { appIdParamsSchema, defineCall } from './contract';

// The USSD emulator's own call (src/shared/api/contract.ts); its other calls are the apps', the templates' and the
// logs' (apps.calls.ts, templates.calls.ts, logs.calls.ts).

/**
 * POST /ussd-emulator/{appId}: one hop of the console emulator's session, which runs the app's draft (or, with
 * `?version=N`, a deployed version). It speaks the emulator adapter's JSON (src/channels/emulator.ts): the request
 * below, and the screen itself as the reply, not the envelope (`bare`); an unreadable request or an unknown app
 * (or version) is refused with the envelope and a 4xx.
 */
export const sendEmulatorRequest = defineCall({
  method: 'POST',
  path: '/ussd-emulator/:appId',
  params: appIdParamsSchema,
  /** `?version=N`: run deployed version N instead of the draft (the versions list's "Try in emulator"); owners only. */
  query: z.object({ version: z.coerce.number().int().min(1).optional() }),
  body: z.object({
    session_id: z.string().min(1).max(100),
    userdata: z.string().max(1_000_000).default(''),
    msisdn: z.string().max(32).default(''),
    session_mode: z.enum(['start', 'continue', 'end']),
    network_id: z.string().max(40).default(''),
    appId: z.string().max(64).optional(),
  }),
  reply: z.object({
    text: z.string(),
    session_mode: z.enum(['continue', 'end']),
    /** Ours, beyond the emulator's two fields: the shown menu's input holder, when the screen waits for input. */
    inputHolder: z.string().optional(),
  }),
  bare: true,
});
