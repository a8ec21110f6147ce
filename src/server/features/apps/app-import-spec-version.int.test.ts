import { beforeAll, expect, it } from 'vitest';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';
import { describeDb } from '../../../../tests/support/test-db';
import { seedShop } from '../../../../tests/support/seed-app';
import type { AppExport } from '../../../shared/api/app-transfer.schema';
import { RULE_SUBJECT_MESSAGE, SPEC_VERSION, SPEC_VERSION_MESSAGES } from '../../../shared/app';

/**
 * An export file says which shape its app and menus have (`specVersion`, docs/import-export.md): an older file is
 * brought forward on import, one from a newer Dialflow is refused with that reason.
 */
describeDb('app import and export: the spec version of the file', () => {
  const t = useTestApp();
  const owner = useUser(t);
  const receiver = useUser(t);
  const { get, post } = createApiClient(t, owner);
  let file: AppExport;

  beforeAll(async () => {
    const appId = await seedShop(t, owner.auth, { customShortCode: '*920*71#' });
    file = (await get(`/api/exportApp/${appId}`)).json().data;
  });

  const countApps = async () => (await get('/api/getAllApps', receiver.auth)).json().data.length;
  /** The file as the export wrote it, but for what differs between two apps made from one file. */
  const strip = (doc: AppExport) => ({
    ...doc,
    exportedAt: '',
    menus: doc.menus.map((m) => ({ ...m, uniqueId: '', parentMenuId: null, switchOperations: m.switchOperations.length })),
  });

  it('writes the current spec version into every export', () => {
    expect(file).toMatchObject({ format: 'dialflow.app', version: 1, specVersion: SPEC_VERSION });
  });

  it('imports a file written before files carried a spec version as the same app', async () => {
    const { specVersion: _stamped, ...unversioned } = file;
    const res = await post('/api/importApp', { document: unversioned }, receiver.auth);
    expect(res.statusCode, res.body).toBe(200);
    const again = (await get(`/api/exportApp/${res.json().data.appId}`, receiver.auth)).json().data as AppExport;
    expect(strip(again)).toEqual(strip(file));
  });

  it('reads a spec version 1 file as it was: its rules test the input', async () => {
    const res = await post('/api/importApp', { document: { ...file, specVersion: 1 }, shortCode: '*920*73#' }, receiver.auth);
    expect(res.statusCode, res.body).toBe(200);
    const again = (await get(`/api/exportApp/${res.json().data.appId}`, receiver.auth)).json().data as AppExport;
    expect(again.specVersion).toBe(SPEC_VERSION);
    expect(again.menus.flatMap((m) => m.switchOperations).every((rule) => rule.subject === undefined)).toBe(true);
  });

  it('carries rules on contact fields and save to contact through export and import (spec version 2)', async () => {
    expect(SPEC_VERSION).toBeGreaterThanOrEqual(2);
    const [first, ...rest] = file.menus;
    const rule = { subject: 'contact.tier', operator: 'isSet', compareVal: '', action: 'Terminate', actionParam: 'Welcome back' } as const;
    const document = {
      ...file,
      menus: [{ ...first!, saveToContact: 'name', switchOperations: [rule, ...first!.switchOperations] }, ...rest],
    };
    const res = await post('/api/importApp', { document, shortCode: '*920*74#' }, receiver.auth);
    expect(res.statusCode, res.body).toBe(200);
    const again = (await get(`/api/exportApp/${res.json().data.appId}`, receiver.auth)).json().data as AppExport;
    expect(again.menus[0]).toMatchObject({
      saveToContact: 'name',
      switchOperations: [rule, ...first!.switchOperations.map(() => expect.anything())],
    });
    const bad = { ...document, menus: [{ ...document.menus[0]!, switchOperations: [{ ...rule, subject: 'contact.1x' }] }, ...rest] };
    const refused = await post('/api/importApp', { document: bad, shortCode: '*920*75#' }, receiver.auth);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toContainEqual({ field: 'menus.0.switchOperations.0.subject', message: RULE_SUBJECT_MESSAGE });
  });

  it('carries a menu media through export and import, and warns that USSD cannot show it (spec version 3)', async () => {
    expect(SPEC_VERSION).toBeGreaterThanOrEqual(3);
    const [first, ...rest] = file.menus;
    const media = {
      inputKind: 'image',
      mediaInput: { mimeTypes: ['image/png'], maxBytes: 1024 * 1024, errorMessage: 'A PNG, please', sizeErrorMessage: '' },
      attachments: [
        { type: 'file', kind: 'document', source: 'url', value: 'https://cdn.example.com/terms.pdf', caption: 'Terms', fileName: '' },
        { type: 'contact', name: 'Help desk', phones: ['+233302000000'] },
      ],
      linkButton: { text: 'Track', url: 'https://t.example.com/{{ session.mobile }}' },
    } as const;
    const document = { ...file, menus: [{ ...first!, ...media }, ...rest] };
    const res = await post('/api/importApp', { document, shortCode: '*920*76#' }, receiver.auth);
    expect(res.statusCode, res.body).toBe(200);
    const appId = res.json().data.appId;
    const again = (await get(`/api/exportApp/${appId}`, receiver.auth)).json().data as AppExport;
    expect(again.menus[0]).toMatchObject(media);
    // A menu without media stays without the fields.
    expect(again.menus[1]).not.toHaveProperty('inputKind');
    const deployed = await get(`/api/deployChanges/${appId}`, receiver.auth);
    expect(deployed.statusCode, deployed.body).toBe(200);
    const warnings = deployed.json().data.warnings as Array<{ code?: string; menu: string }>;
    expect(warnings.filter((i) => i.code === 'media_on_ussd').map((i) => i.menu)).toEqual([first!.userDefinedName]);
  });

  it.each([
    ['a newer spec version', SPEC_VERSION + 1, SPEC_VERSION_MESSAGES.newer(SPEC_VERSION + 1)],
    ['a spec version that is not a whole number', '1', SPEC_VERSION_MESSAGES.invalid('1')],
    ['spec version 0', 0, SPEC_VERSION_MESSAGES.invalid(0)],
  ])('refuses a file with %s, saying so once, and creates nothing', async (_name, specVersion, message) => {
    const before = await countApps();
    const res = await post('/api/importApp', { document: { ...file, specVersion }, shortCode: '*920*72#' }, receiver.auth);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ status: '02', message, errors: [{ field: 'specVersion', message }] });
    expect(await countApps()).toBe(before);
  });
});
