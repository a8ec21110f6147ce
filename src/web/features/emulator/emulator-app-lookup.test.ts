import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { App } from '../../../shared/api/apps.schema';
import { emulatorAppQuery, templateAppsQuery, toAppLookup } from './emulator.api';

// What the emulator opens, read through the apps' and the templates' declared calls and cached under their keys.

const fetchMock = vi.fn();
const answer = (status: number, body: unknown) =>
  fetchMock.mockResolvedValueOnce(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

const app = (appId: string, appName: string): App => ({
  appId,
  appName,
  description: '',
  country: 'ghana',
  useTemplateTag: false,
  shortCode: '*920*1#',
  connectionMode: 'existing-shortcode',
  baseShortCode: '',
  customShortCode: '',
  screenLimit: 182,
  resumeOnRedial: false,
  resumeWindowMinutes: 5,
  languages: null,
  officeHours: null,
  gatewayConnections: [],
  flagIcon: '',
  isTemplate: false,
  channel: 'ussd',
  status: 'active',
  testUrl: '',
  productionUrl: '',
  hasGatewayKey: false,
  gatewayKey: null,
  companyName: 'Kofi Ltd',
  userEmail: 'kofi@example.com',
  liveVersion: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

/** The lookup as the page reads it: the query's data, or the error its function threw. */
async function lookUp(query: { queryFn: () => Promise<App | App[]> }, appId: string) {
  try {
    return toAppLookup(appId, await query.queryFn(), null);
  } catch (error) {
    return toAppLookup(appId, undefined, error as Error);
  }
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('window', new EventTarget());
  vi.stubGlobal('localStorage', { getItem: () => 'T1' });
});
afterEach(() => vi.unstubAllGlobals());

describe('the emulator app lookup', () => {
  it("is keyed as the app's own call, so the console's screens of the app share it", () => {
    expect(emulatorAppQuery('a1').queryKey).toEqual(['apps', 'a1']);
    expect(templateAppsQuery().queryKey).toEqual(['templates', 'featured']);
  });

  it('finds the app, or reads a 404 (another account’s app too) as not found', async () => {
    answer(200, { status: '00', message: 'OK', data: app('a1', 'Kofi Shop') });
    expect(await lookUp(emulatorAppQuery('a1'), 'a1')).toEqual({
      kind: 'found',
      app: { appId: 'a1', appName: 'Kofi Shop', shortCode: '*920*1#' },
    });
    answer(404, { status: '04', message: 'App not found' });
    expect(await lookUp(emulatorAppQuery('a2'), 'a2')).toEqual({ kind: 'not-found' });
  });

  it('fails with the detail shown when the server was not reached or refused otherwise', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    expect(await lookUp(emulatorAppQuery('a1'), 'a1')).toEqual({ kind: 'failed', detail: 'the server could not be reached' });
    answer(500, { status: '99', message: 'Something went wrong' });
    expect(await lookUp(templateAppsQuery(), 'a1')).toEqual({ kind: 'failed', detail: 'Something went wrong' });
  });

  it('finds a template among the featured ones, and no other app', async () => {
    answer(200, { status: '00', message: 'OK', data: [app('t1', 'Community Poll')] });
    expect(await lookUp(templateAppsQuery(), 't1')).toMatchObject({ kind: 'found', app: { appName: 'Community Poll' } });
    answer(200, { status: '00', message: 'OK', data: [app('t1', 'Community Poll')] });
    expect(await lookUp(templateAppsQuery(), 'a1')).toEqual({ kind: 'not-found' });
  });
});
