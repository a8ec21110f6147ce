import { getApp as getAppCall } from '../../../shared/api/apps.calls';
import { call } from '../../lib/call';

// The apps' calls are declared in src/shared/api/apps.calls.ts.

/** The redirect after creating an app or saving its settings. */
export const SAVE_REDIRECT_MS = 1000;

// The emulator's app call, until the emulator calls the declaration itself (its own conversion).
export const getApp = (appId: string) => call(getAppCall, { params: { appId } });
