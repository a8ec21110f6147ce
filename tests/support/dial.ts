import type { TestApp } from './test-app';

/**
 * One hop on an app's test URL as Africa's Talking posts it (form fields, `text` cumulative: '' opens the
 * session, then every answer so far joined by `*`), from network 62001 on the shortcode *920*55#.
 */
export function dialTestUrl(t: Pick<TestApp, 'app'>, appId: string, sessionId: string, phoneNumber: string, text = '') {
  return t.app.inject({
    method: 'POST',
    url: `/ussd/${appId}/test`,
    payload: new URLSearchParams({ sessionId, serviceCode: '*920*55#', phoneNumber, networkCode: '62001', text }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}
