/**
 * WhatsApp Embedded Signup in the browser (docs/whatsapp-connectors.md), as Meta documents it: Facebook's JS SDK
 * is loaded once, `FB.login` opens Meta's signup with the installation's configuration id and answers with a
 * `code` (exchanged by our server, never here), and the signup window posts a `WA_EMBEDDED_SIGNUP` message with
 * the WhatsApp Business Account and phone number ids the customer chose.
 */
const SDK_URL = 'https://connect.facebook.net/en_US/sdk.js';
const GRAPH_VERSION = 'v21.0';

export interface EmbeddedSignupResult {
  code: string;
  wabaId: string;
  phoneNumberId: string;
}

interface FacebookSdk {
  init(options: { appId: string; autoLogAppEvents: boolean; xfbml: boolean; version: string }): void;
  login(callback: (response: { authResponse?: { code?: string } | null }) => void, options: Record<string, unknown>): void;
}

declare global {
  interface Window {
    FB?: FacebookSdk;
  }
}

let sdk: Promise<FacebookSdk> | undefined;

function loadSdk(appId: string): Promise<FacebookSdk> {
  sdk ??= new Promise<FacebookSdk>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SDK_URL;
    script.async = true;
    script.crossOrigin = 'anonymous';
    script.onload = () => {
      if (!window.FB) return reject(new Error("Facebook's sign-in did not load"));
      window.FB.init({ appId, autoLogAppEvents: true, xfbml: false, version: GRAPH_VERSION });
      resolve(window.FB);
    };
    script.onerror = () => reject(new Error("Facebook's sign-in could not be loaded: check the connection, or an ad blocker"));
    document.head.append(script);
  }).catch((err: unknown) => {
    sdk = undefined;
    throw err;
  });
  return sdk;
}

/** Loads the SDK ahead of the click, so Meta's window opens within the click (popup blockers allow that only). */
export function preloadEmbeddedSignup(appId: string): void {
  void loadSdk(appId).catch(() => undefined);
}

/** The session-info message's ids, from a message event of facebook.com; null for any other message. */
export function readSessionInfo(origin: string, data: unknown): { wabaId: string; phoneNumberId: string } | 'cancelled' | null {
  if (!/^https:\/\/([a-z]+\.)?facebook\.com$/.test(origin)) return null;
  let message: unknown = data;
  if (typeof data === 'string') {
    try {
      message = JSON.parse(data);
    } catch {
      return null;
    }
  }
  if (typeof message !== 'object' || message === null) return null;
  const { type, event, data: info } = message as { type?: unknown; event?: unknown; data?: Record<string, unknown> };
  if (type !== 'WA_EMBEDDED_SIGNUP') return null;
  if (event === 'CANCEL') return 'cancelled';
  const wabaId = info?.waba_id;
  const phoneNumberId = info?.phone_number_id;
  if (typeof wabaId !== 'string' || typeof phoneNumberId !== 'string') return null;
  return { wabaId, phoneNumberId };
}

/** Opens Meta's signup; resolves with what the server needs, rejects when it is closed or refused. */
export async function runEmbeddedSignup(ids: { appId: string; configId: string }): Promise<EmbeddedSignupResult> {
  const fb = await loadSdk(ids.appId);
  return new Promise<EmbeddedSignupResult>((resolve, reject) => {
    let session: { wabaId: string; phoneNumberId: string } | null = null;
    let code: string | null = null;
    const finish = () => {
      if (!session || !code) return;
      window.removeEventListener('message', onMessage);
      resolve({ code, ...session });
    };
    const fail = (message: string) => {
      window.removeEventListener('message', onMessage);
      reject(new Error(message));
    };
    function onMessage(event: MessageEvent) {
      const info = readSessionInfo(event.origin, event.data);
      if (info === 'cancelled') return fail('The signup was closed before it finished');
      if (info) {
        session = info;
        finish();
      }
    }
    window.addEventListener('message', onMessage);
    fb.login(
      (response) => {
        code = response.authResponse?.code ?? null;
        if (!code) return fail('The signup was closed before it finished');
        // The session-info message usually comes first; give it a moment when it did not.
        if (!session) setTimeout(() => (session ? finish() : fail('Meta did not say which number was chosen; try again')), 3000);
        finish();
      },
      {
        config_id: ids.configId,
        response_type: 'code',
        override_default_response_type: true,
        extras: { setup: {}, sessionInfoVersion: '3' },
      },
    );
  });
}
