import { desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, expect, it } from 'vitest';
import { appVersions } from '../../../db/schema';
import { UNAVAILABLE_TEXT } from '../../../engine';
import { SPEC_VERSION, SPEC_VERSION_MESSAGES } from '../../../shared/app';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';
import { seedApp, seedMenu } from '../../../../tests/support/seed-app';
import { buildApp } from '../../app';
import { createConfig } from '../../config';
import { getFeaturedTemplates } from '../templates/featured-templates';
import { insertAppFromDefinition } from '../templates/templates.service';

describeDb('versioned definitions: deployed versions carry their spec version', () => {
  const t = useTestApp();
  const owner = useUser(t);
  const { get, post } = createApiClient(t, owner);
  const others: FastifyInstance[] = [];
  afterAll(() => Promise.all(others.map((app) => app.close())));

  const storedDefinitions = async (appId: string) =>
    (
      await t.db
        .select({ definition: appVersions.definition })
        .from(appVersions)
        .where(eq(appVersions.appId, appId))
        .orderBy(desc(appVersions.number))
    ).map((row) => row.definition as Record<string, unknown>);

  /** An app with one screen that ends the session, deployed as version 1. */
  async function seedDeployedApp(displayText = 'Welcome, this is version 1') {
    const appId = await seedApp(t, owner.auth);
    const home = await seedMenu(t, owner.auth, appId, { userDefinedName: 'home', displayText, terminate: true });
    expect((await get(`/api/deployChanges/${appId}`)).json().data.version).toBe(1);
    return { appId, home };
  }

  /** Rewrites a stored version's specVersion, as an older (undefined) or a newer Dialflow would have stored it. */
  async function setStoredSpecVersion(appId: string, number: number, specVersion: number | undefined) {
    const definition =
      specVersion === undefined
        ? sql`${appVersions.definition} - 'specVersion'`
        : sql`jsonb_set(${appVersions.definition}, '{specVersion}', ${JSON.stringify(specVersion)}::jsonb)`;
    await t.db.update(appVersions).set({ definition }).where(sql`${appVersions.appId} = ${appId} and ${appVersions.number} = ${number}`);
    t.app.ctx.versions.invalidate(appId);
  }

  const hopLive = (app: FastifyInstance, appId: string) =>
    app.inject({
      method: 'POST',
      url: `/ussd/${appId}/live`,
      payload: new URLSearchParams({
        sessionId: `s${Math.random()}`,
        serviceCode: '*920*1#',
        phoneNumber: '+233241112222',
        text: '',
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });

  it('stamps every stored definition with the current spec version: a deploy, a rollback and a template deployed by the seed', async () => {
    const { appId, home } = await seedDeployedApp();
    await post('/api/updateMenu', { appId, uniqueId: home, userDefinedName: 'home', displayText: 'Version 2', terminate: true });
    expect((await get(`/api/deployChanges/${appId}`)).json().data.version).toBe(2);
    expect((await post('/api/rollbackVersion', { appId, version: 1 })).json().data.version).toBe(3);
    const stored = await storedDefinitions(appId);
    expect(stored.map((d) => d.specVersion)).toEqual([SPEC_VERSION, SPEC_VERSION, SPEC_VERSION]);
    expect(stored[0]).toMatchObject({ versionId: 'v3', menus: [{ displayText: 'Welcome, this is version 1' }] });

    const templateId = await insertAppFromDefinition(t.db, getFeaturedTemplates('http://localhost')[0]!, {
      ownerId: owner.user.id,
      isTemplate: true,
      deploy: true,
    });
    expect((await storedDefinitions(templateId)).map((d) => d.specVersion)).toEqual([SPEC_VERSION]);
  });

  it('runs a version stored before versions were stamped as it ran before, and finds the same draft unchanged since it', async () => {
    const { appId } = await seedDeployedApp('Stored before versions');
    await setStoredSpecVersion(appId, 1, undefined);
    expect((await storedDefinitions(appId))[0]).not.toHaveProperty('specVersion');
    const res = await hopLive(t.app, appId);
    expect(res.body).toBe('END Stored before versions');
    const again = await get(`/api/deployChanges/${appId}`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: 'No changes since version 1' });
    // Rolled back to, it is stored anew in the current shape.
    await post('/api/updateMenu', {
      appId,
      uniqueId: (await get(`/api/getAllMenusLite/${appId}`)).json().data[0].uniqueId,
      userDefinedName: 'home',
      displayText: 'Two',
      terminate: true,
    });
    expect((await get(`/api/deployChanges/${appId}`)).json().data.version).toBe(2);
    expect((await post('/api/rollbackVersion', { appId, version: 1 })).json().data.version).toBe(3);
    expect((await storedDefinitions(appId))[0]).toMatchObject({ specVersion: SPEC_VERSION, versionId: 'v3' });
    expect((await hopLive(t.app, appId)).body).toBe('END Stored before versions');
  });

  it('refuses a version from a newer spec version: the live URL answers as for a broken version and logs why; no rollback to it', async () => {
    const { appId, home } = await seedDeployedApp('From the future');
    const newer = SPEC_VERSION + 1;
    await setStoredSpecVersion(appId, 1, newer);

    // A process of its own, whose log the test reads.
    const lines: string[] = [];
    const logged = await buildApp(createConfig({ NODE_ENV: 'test', LOG_FORMAT: 'json' }), {
      database: t.app.ctx.database,
      logger: { stream: { write: (line: string) => void lines.push(line) } },
    });
    others.push(logged);
    const res = await hopLive(logged, appId);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(`END ${UNAVAILABLE_TEXT}`);
    expect(lines.some((line) => line.includes(SPEC_VERSION_MESSAGES.newer(newer)) && line.includes(appId))).toBe(true);

    await post('/api/updateMenu', { appId, uniqueId: home, userDefinedName: 'home', displayText: 'Today', terminate: true });
    expect((await get(`/api/deployChanges/${appId}`)).json().data.version).toBe(2);
    const rollback = await post('/api/rollbackVersion', { appId, version: 1 });
    expect(rollback.statusCode).toBe(400);
    expect(rollback.json()).toMatchObject({
      status: '02',
      message: `Version 1 cannot be rolled back to: ${SPEC_VERSION_MESSAGES.newer(newer)}`,
    });
    expect((await storedDefinitions(appId)).length).toBe(2);
  });
});
