import { expect, it } from 'vitest';
import { describeDb } from '../../../tests/support/test-db';
import { useTestApp } from '../../../tests/support/test-app';

describeDb('security headers', () => {
  const t = useTestApp();
  const proxied = useTestApp({ TRUST_PROXY: 1 });
  const tiles = useTestApp({ MAP_TILE_URL: 'http://127.0.0.1:8090/tiles/{z}/{x}/{y}.png', MAP_TILE_ATTRIBUTION: 'Local tiles' });
  const noMap = useTestApp({ MAP_TILE_URL: '' });
  const signup = useTestApp({ WHATSAPP_CLOUD_APP_ID: '4455667788', WHATSAPP_EMBEDDED_SIGNUP_CONFIG_ID: '998877665544' });

  it('the console and API send a CSP that forbids framing and foreign scripts, nosniff and no-referrer', async () => {
    for (const url of ['/api/health', '/login', '/api/getAllApps']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).toContain("script-src 'self'");
      expect(csp, url).toContain("object-src 'none'");
      expect(csp, url).not.toContain('upgrade-insecure-requests');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
    }
  });

  it("lets Facebook's SDK in only where Embedded Signup is set up", async () => {
    const plain = String(
      (await t.app.inject({ method: 'GET', url: '/login', headers: { accept: 'text/html' } })).headers['content-security-policy'],
    );
    expect(plain).not.toContain('facebook');
    const csp = String(
      (await signup.app.inject({ method: 'GET', url: '/login', headers: { accept: 'text/html' } })).headers['content-security-policy'],
    );
    expect(csp).toContain("script-src 'self' https://connect.facebook.net");
    expect(csp).toContain('frame-src https://www.facebook.com');
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it('HSTS only over HTTPS: never on plain HTTP, and from a trusted proxy that says https', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    // Not trusted: a client's own X-Forwarded-Proto changes nothing.
    const forged = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(forged.headers['strict-transport-security']).toBeUndefined();
    const viaProxy = await proxied.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(viaProxy.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('gateway replies carry none of them (a gateway reads no headers; every byte costs every hop)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/ussd/no-such-app/test',
      payload: { sessionId: '1', phoneNumber: '233200000000', serviceCode: '*920#', text: '' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(res.headers['x-frame-options']).toBeUndefined();
  });

  it("lets images in from the map's tile host alone, as MAP_TILE_URL names it, and none when the map is off", async () => {
    const cspOf = async (app: typeof t.app) =>
      String((await app.inject({ method: 'GET', url: '/login', headers: { accept: 'text/html' } })).headers['content-security-policy']);
    const imageSources = (csp: string) =>
      csp
        .split(';')
        .find((d) => d.trim().startsWith('img-src'))
        ?.trim();
    expect(imageSources(await cspOf(t.app))).toBe("img-src 'self' data: blob: https://tile.openstreetmap.org");
    expect(imageSources(await cspOf(tiles.app))).toBe("img-src 'self' data: blob: http://127.0.0.1:8090");
    expect(imageSources(await cspOf(noMap.app))).toBe("img-src 'self' data: blob:");
    // Images only: scripts, frames and calls stay with our origin.
    const csp = await cspOf(tiles.app);
    expect(csp.match(/127\.0\.0\.1:8090/g)).toHaveLength(1);

    // The console learns the setting without a sign-in (the simulated phone has none).
    const answer = await tiles.app.inject({ method: 'GET', url: '/api/map-tiles' });
    expect(answer.json()).toEqual({
      status: '00',
      message: 'OK',
      data: { tileUrl: 'http://127.0.0.1:8090/tiles/{z}/{x}/{y}.png', attribution: 'Local tiles' },
    });
    expect((await noMap.app.inject({ method: 'GET', url: '/api/map-tiles' })).json().data.tileUrl).toBe('');
  });
});
