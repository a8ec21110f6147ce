import { describe, expect, it } from 'vitest';
import { signWebhookBody } from './webhook-dispatcher';
import { checkWebhookUrl } from './webhooks.service';

describe('signWebhookBody', () => {
  it('is t=<seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">, as `openssl dgst -sha256 -hmac` computes it', () => {
    expect(signWebhookBody('whsec_test', 1_700_000_000, '{"id":"evt_1"}')).toBe(
      't=1700000000,v1=c89214b5b5da833daed6f0b8c5bb6bd58cea9022bd80ccc78230f3942d632925',
    );
  });
});

describe('checkWebhookUrl (IP literals: no DNS)', () => {
  const rules = { allowPrivate: false };
  it('takes a public address and drops the fragment', async () => {
    expect(await checkWebhookUrl(rules, 'https://8.8.8.8:8443/hooks?x=1#top')).toBe('https://8.8.8.8:8443/hooks?x=1');
  });
  it.each([
    ['http://10.0.0.1/hook', 'Refused: 10.0.0.1 is a private address (private)'],
    ['http://[::ffff:192.168.1.1]/hook', 'Refused: [::ffff:c0a8:101] is a private address (private)'],
    ['http://0x7f.1/hook', 'Refused: 127.0.0.1 is a private address (loopback)'],
    ['http://169.254.169.254/', 'Refused: 169.254.169.254 is a cloud metadata address'],
    ['ftp://8.8.8.8/x', 'Enter the full URL of your endpoint'],
    ['8.8.8.8/hook', 'Enter the full URL of your endpoint'],
    ['https://user:pass@8.8.8.8/x', 'Leave the user name and password out'],
  ])('refuses %s', async (url, message) => {
    await expect(checkWebhookUrl(rules, url)).rejects.toThrow(message);
  });
  it('lets the operator allow private addresses, never metadata ones', async () => {
    expect(await checkWebhookUrl({ allowPrivate: true }, 'http://10.0.0.1/hook')).toBe('http://10.0.0.1/hook');
    await expect(checkWebhookUrl({ allowPrivate: true }, 'http://169.254.169.254/')).rejects.toThrow('cloud metadata');
  });
});
