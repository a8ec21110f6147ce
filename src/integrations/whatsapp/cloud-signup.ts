/**
 * What linking a Cloud API number with credentials of its own asks of Meta's Graph API (docs/whatsapp-connectors.md,
 * "Embedded Signup" and "A number's own credentials"), written to Meta's documentation:
 * - the code Embedded Signup hands the browser is exchanged for a business token:
 *   `GET /oauth/access_token?client_id=<app id>&client_secret=<app secret>&code=<code>` -> `{ access_token }`;
 * - the app is subscribed to the customer's WhatsApp Business Account, so its webhook gets the number's messages:
 *   `POST /{waba-id}/subscribed_apps` -> `{ success: true }`;
 * - the number is registered for the Cloud API with a 6-digit two-step verification pin:
 *   `POST /{phone-number-id}/register` `{ messaging_product: 'whatsapp', pin }` -> `{ success: true }`;
 * - a WhatsApp Business Account's numbers: `GET /{waba-id}/phone_numbers?fields=id` -> `{ data: [{ id }] }`.
 * Each rejects with a CloudApiError (Meta's words and code; `isTransient` when Meta could not answer).
 */
import { createGraphApi } from './cloud-api';

export interface CloudSignupOptions {
  /** `https://graph.facebook.com/v21.0`; tests point it at a local server. */
  apiUrl: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export function createCloudSignup(options: CloudSignupOptions) {
  const graph = createGraphApi(options);
  const id = (value: string) => encodeURIComponent(value);
  return {
    /** The business token the signup's `code` stands for (the code is single-use and lives about a minute). */
    async exchangeCode(app: { appId: string; appSecret: string }, code: string): Promise<string> {
      const query = new URLSearchParams({ client_id: app.appId, client_secret: app.appSecret, code });
      const answer = await graph(`/oauth/access_token?${query}`, { method: 'GET' }, '');
      const token = answer.access_token;
      if (typeof token !== 'string' || !token) throw new Error('WhatsApp Cloud API: the code exchange answered no access_token');
      return token;
    },
    async subscribeApp(wabaId: string, accessToken: string): Promise<void> {
      await graph(`/${id(wabaId)}/subscribed_apps`, { method: 'POST', body: {} }, accessToken);
    },
    async registerNumber(phoneNumberId: string, pin: string, accessToken: string): Promise<void> {
      await graph(`/${id(phoneNumberId)}/register`, { method: 'POST', body: { messaging_product: 'whatsapp', pin } }, accessToken);
    },
    /** Whether the WhatsApp Business Account lists the number among its own (read with `accessToken`). */
    async wabaOwnsNumber(wabaId: string, phoneNumberId: string, accessToken: string): Promise<boolean> {
      const answer = await graph(`/${id(wabaId)}/phone_numbers?fields=id&limit=100`, { method: 'GET' }, accessToken);
      const numbers = Array.isArray(answer.data) ? answer.data : [];
      return numbers.some((n) => typeof n === 'object' && n !== null && String((n as { id?: unknown }).id) === phoneNumberId);
    },
  };
}

export type CloudSignup = ReturnType<typeof createCloudSignup>;
