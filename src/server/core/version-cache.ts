import { LRUCache } from 'lru-cache';
import { and, eq, inArray, max, ne } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { compileApp } from '../../engine';
import { apps } from '../../db/schema';
import type { Db } from '../../db/client';
import { findLiveVersion, findNumberedVersion, getDraftVersion, SUBFLOW_CHANNEL } from './app-versions';
import type { AppVersion } from '../../shared/app';
import type { ConsentKeywords } from '../../shared/contact-consent';
import type { HandoffKeywords } from '../../shared/inbox';
import type { OfficeHours } from '../../shared/office-hours';
import { getRedisChannel, SUBSCRIBER_OPTIONS } from '../redis';
import type { LoadedApp, VersionCache } from './caches';

const toResumeWindow = (app: { resumeOnRedial: boolean; resumeWindowMinutes: number }) =>
  app.resumeOnRedial ? app.resumeWindowMinutes : null;

/** The app's settings a run reads beside its version (not part of a version: they apply to every one). */
interface RunSettings {
  appName: string;
  ownerId: string;
  isTemplate: boolean;
  country: string;
  resumeOnRedial: boolean;
  resumeWindowMinutes: number;
  consentKeywords: ConsentKeywords | null;
  handoffKeywords: HandoffKeywords | null;
  officeHours: OfficeHours | null;
}

function toLoaded(version: AppVersion, app: RunSettings): LoadedApp {
  return {
    compiled: compileApp(version),
    appName: app.appName,
    ownerId: app.ownerId,
    isTemplate: app.isTemplate,
    country: app.country,
    resumeWindowMinutes: toResumeWindow(app),
    consentKeywords: app.consentKeywords ?? null,
    handoffKeywords: app.handoffKeywords ?? null,
    officeHours: app.officeHours ?? null,
  };
}

export function createVersionCache(db: Db, redis?: Redis): VersionCache {
  const live = new LRUCache<string, LoadedApp>({ max: 5000 });
  const drafts = new LRUCache<string, { stamp: number; loaded: LoadedApp }>({ max: 1000 });
  // Older versions tried in the emulator, by `appId#number`: a few at a time, so a small cache.
  const numbered = new LRUCache<string, LoadedApp>({ max: 200 });
  /** Forgets an app's versions here: its settings (name, office hours) may have changed with them. */
  const forget = (appId: string) => {
    live.delete(appId);
    drafts.delete(appId);
    for (const key of numbered.keys()) if (key.startsWith(`${appId}#`)) numbered.delete(key);
  };
  // Under REDIS_KEY_PREFIX: another installation's deploys on the same Redis are not heard here.
  const channel = redis ? getRedisChannel(redis, 'invalidate') : '';
  const subscriber = redis?.duplicate(SUBSCRIBER_OPTIONS);
  if (subscriber) {
    subscriber.on('error', () => {});
    // On every (re)connection: a subscription asked for while Redis was down was refused, never sent.
    subscriber.on('ready', () => void subscriber.subscribe(channel).catch(() => {}));
    subscriber.on('message', (_channel, appId: string) => forget(appId));
  }

  /** The app's settings a run reads beside its version; undefined when the app does not exist. */
  async function findRunSettings(appId: string) {
    const [app] = await db
      .select({
        id: apps.id,
        appName: apps.appName,
        ownerId: apps.userId,
        isTemplate: apps.isTemplate,
        country: apps.country,
        resumeOnRedial: apps.resumeOnRedial,
        resumeWindowMinutes: apps.resumeWindowMinutes,
        consentKeywords: apps.consentKeywords,
        handoffKeywords: apps.handoffKeywords,
        officeHours: apps.officeHours,
      })
      .from(apps)
      .where(and(eq(apps.id, appId), ne(apps.channel, SUBFLOW_CHANNEL)));
    return app;
  }

  async function findDraftStamp(appUpdatedAt: Date, subflows: AppVersion['subflows']): Promise<number> {
    if (!subflows?.length) return appUpdatedAt.getTime();
    const [row] = await db
      .select({ at: max(apps.updatedAt) })
      .from(apps)
      .where(
        inArray(
          apps.id,
          subflows.map((sf) => sf.id),
        ),
      );
    return Math.max(appUpdatedAt.getTime(), row?.at ? new Date(row.at).getTime() : 0);
  }

  /** A deployed version ready to run with the app's settings, or why there is none. */
  async function loadDeployed(appId: string, find: () => Promise<AppVersion | undefined>): Promise<LoadedApp> {
    const app = await findRunSettings(appId);
    if (!app) return { missing: 'app' };
    const version = await find();
    return version ? toLoaded(version, app) : { missing: 'version' };
  }

  return {
    async getLive(appId) {
      const cached = live.get(appId);
      if (cached) return cached;
      const loaded = await loadDeployed(appId, () => findLiveVersion(db, appId));
      live.set(appId, loaded);
      return loaded;
    },
    async getNumbered(appId, number) {
      const key = `${appId}#${number}`;
      const cached = numbered.get(key);
      if (cached) return cached;
      const loaded = await loadDeployed(appId, () => findNumberedVersion(db, appId, number));
      // An unknown number is not kept: it may be the next deploy's.
      if (!('missing' in loaded)) numbered.set(key, loaded);
      return loaded;
    },
    async getDraft(appId) {
      const [app] = await db.select().from(apps).where(eq(apps.id, appId));
      // A sub-flow runs inside the apps that enter it, never by itself (docs/sub-flows.md).
      if (!app || app.channel === SUBFLOW_CHANNEL) return { missing: 'app' };
      const cached = drafts.get(appId);
      // The draft changes with the app's menus and with those of the sub-flows it enters: the latest of their times.
      const stamp = await findDraftStamp(
        app.updatedAt,
        cached && !('missing' in cached.loaded) ? cached.loaded.compiled.app.subflows : undefined,
      );
      if (cached && cached.stamp === stamp) return cached.loaded;
      const loaded = toLoaded(await getDraftVersion(db, app), { ...app, ownerId: app.userId });
      drafts.set(appId, { stamp, loaded });
      return loaded;
    },
    invalidate(appId) {
      forget(appId);
      if (redis) void redis.publish(channel, appId).catch(() => {});
    },
    async close() {
      subscriber?.disconnect();
    },
  };
}
