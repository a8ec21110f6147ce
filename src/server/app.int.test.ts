import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { describeDb, testDbKind } from '../../tests/support/test-db';
import { createTestApp, useTestApp } from '../../tests/support/test-app';

describeDb('server shell', () => {
  const t = useTestApp();

  it('reports the database in /api/health', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: '00',
      data: { database: 'up', databaseKind: testDbKind, redis: 'not configured', events: { shed: 0 } },
    });
  });

  it('answers unknown API paths with the envelope and 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/no-such-thing', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: '04', message: 'No route for GET /api/no-such-thing' });
  });

  it('answers malformed JSON with 400 and status 02', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().status).toBe('02');
  });

  it('publishes an OpenAPI document built from the route schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/auth/login', '/api/changePassword', '/api/contactus', '/api/health']),
    );
    expect(doc.paths['/api/auth/login'].post.requestBody.content['application/json'].schema.required).toEqual(['email', 'password']);
  });

  it('serves the console page for / to any client, and for other client routes to browsers', async () => {
    const webDist = await mkdtemp(join(tmpdir(), 'dialflow-web-'));
    await writeFile(join(webDist, 'index.html'), '<!doctype html><title>Dialflow</title>');
    const web = await createTestApp({ WEB_DIST: webDist });
    try {
      for (const headers of [{}, { accept: '*/*' }, { accept: 'text/html' }]) {
        const home = await web.app.inject({ method: 'GET', url: '/', headers });
        expect(home.statusCode).toBe(200);
        expect(home.headers['content-type']).toContain('text/html');
        expect(home.body).toContain('<title>Dialflow</title>');
      }
      expect((await web.app.inject({ method: 'GET', url: '/app-list', headers: { accept: 'text/html' } })).body).toContain(
        '<title>Dialflow</title>',
      );
      // An API client's typo still gets the envelope rather than a page.
      expect((await web.app.inject({ method: 'GET', url: '/app-list' })).json()).toEqual({
        status: '04',
        message: 'No route for GET /app-list',
      });
    } finally {
      await web.close();
      await rm(webDist, { recursive: true, force: true });
    }
  });
});
