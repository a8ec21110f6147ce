import { LRUCache } from 'lru-cache';
import { eq } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { compileApp } from '../../engine';
import { apps } from '../../db/schema';
import type { Db } from '../../db/client';
import { findLiveVersion, getDraftVersion } from './app-versions';
import { getRedisChannel, SUBSCRIBER_OPTIONS } from '../redis';
import type { LoadedApp, VersionCache } from './caches';

const toResumeWindow = (app: { resumeOnRedial: boolean; resumeWindowMinutes: number }) =>
  app.resumeOnRedial ? app.resumeWindowMinutes : null;

export function createVersionCache(db: Db, redis?: Redis): VersionCache {
  const live = new LRUCache<string, LoadedApp>({ max: 5000 });
  const drafts = new LRUCache<string, { stamp: number; loaded: LoadedApp }>({ max: 1000 });
  // Under REDIS_KEY_PREFIX: another installation's deploys on the same Redis are not heard here.
  const channel = redis ? getRedisChannel(redis, 'invalidate') : '';
  const subscriber = redis?.duplicate(SUBSCRIBER_OPTIONS);
  if (subscriber) {
    subscriber.on('error', () => {});
    // On every (re)connection: a subscription asked for while Redis was down was refused, never sent.
    subscriber.on('ready', () => void subscriber.subscribe(channel).catch(() => {}));
    subscriber.on('message', (_channel, appId: string) => {
      live.delete(appId);
      drafts.delete(appId);
    });
  }

  return {
    async getLive(appId) {
      const cached = live.get(appId);
      if (cached) return cached;
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
        .where(eq(apps.id, appId));
      if (!app) return { missing: 'app' };
      const version = await findLiveVersion(db, appId);
      const loaded: LoadedApp = version
        ? {
            compiled: compileApp(version),
            appName: app.appName,
            ownerId: app.ownerId,
            isTemplate: app.isTemplate,
            country: app.country,
            resumeWindowMinutes: toResumeWindow(app),
            consentKeywords: app.consentKeywords ?? null,
            handoffKeywords: app.handoffKeywords ?? null,
            officeHours: app.officeHours ?? null,
          }
        : { missing: 'version' };
      live.set(appId, loaded);
      return loaded;
    },
    async getDraft(appId) {
      const [app] = await db.select().from(apps).where(eq(apps.id, appId));
      if (!app) return { missing: 'app' };
      const stamp = app.updatedAt.getTime();
      const cached = drafts.get(appId);
      if (cached && cached.stamp === stamp) return cached.loaded;
      const loaded: LoadedApp = {
        compiled: compileApp(await getDraftVersion(db, app)),
        appName: app.appName,
        ownerId: app.userId,
        isTemplate: app.isTemplate,
        country: app.country,
        resumeWindowMinutes: toResumeWindow(app),
        consentKeywords: app.consentKeywords ?? null,
        handoffKeywords: app.handoffKeywords ?? null,
        officeHours: app.officeHours ?? null,
      };
      drafts.set(appId, { stamp, loaded });
      return loaded;
    },
    invalidate(appId) {
      live.delete(appId);
      drafts.delete(appId);
      if (redis) void redis.publish(channel, appId).catch(() => {});
    },
    async close() {
      subscriber?.disconnect();
    },
  };
}
