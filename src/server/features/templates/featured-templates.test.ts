import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  compileApp,
  continueSession,
  lintApp,
  startSession,
  type ActionRequest,
  type EngineDeps,
  type SessionState,
} from '../../../engine';
import { validateMenu } from '../../../shared/app';
import { getFeaturedTemplates, readTemplateFile } from './featured-templates';
import { buildTemplateVersion } from './templates.service';
import { getDemoBankAccount } from '../demo-bank/demo-bank.routes';
import { getDemoBot } from '../bots/demo-bot';

const templates = getFeaturedTemplates('http://127.0.0.1:3000');

/** Answers actions the way the real runners will: a payment reference, the sandbox bank, a queued SMS. */
async function runDemoAction(request: ActionRequest) {
  if (request.kind === 'paymentprompt') return { ok: true as const, result: { reference: 'PAY-123', status: 'PENDING' } };
  if (request.kind === 'sendsms') return { ok: true as const, result: { id: 'sms-1', status: 'QUEUED' } };
  if (request.kind === 'restapi') {
    const url = request.renderTemplate((request.action.code as { url: string }).url);
    return { ok: true as const, result: { status: 200, ok: true, headers: {}, body: getDemoBankAccount(url.split('/').at(-1)!) } };
  }
  return { ok: false as const, error: 'unexpected action' };
}

async function dial(name: string, dialString: string, inputs: string[], runAction: EngineDeps['runAction'] = runDemoAction) {
  const def = templates.find((t) => t.appName === name)!;
  const compiled = compileApp(buildTemplateVersion(def));
  let clock = 1_700_000_000_000;
  let ids = 0;
  // A second passes between hops; within a hop the clock stands still (the engine times renders with it).
  const deps: EngineDeps = { now: () => clock, newId: () => `id${ids++}`, runAction };
  const hop = { sessionId: 's1', msisdn: '233241234567', network: 'MTN', serviceCode: def.shortCode, dialString, input: '' };
  let result = await startSession(compiled, hop, deps);
  const screens = [result.reply.text];
  let state: SessionState = result.state;
  for (const input of inputs) {
    clock += 1000;
    result = await continueSession(compiled, state, { ...hop, input }, deps);
    state = result.state;
    screens.push(result.reply.text);
  }
  return { screens, end: result.reply.end, state };
}

describe('featured templates', () => {
  it('are at least the six the product promises', () => {
    expect(templates.map((t) => t.appName)).toEqual([
      'Airtime Top-Up',
      'Pay a Merchant',
      'Community Poll',
      'Customer Survey',
      'Balance Enquiry',
      'Event Registration',
    ]);
  });

  it.each([...templates, getDemoBot()].map((t) => [t.appName, t] as const))(
    '%s passes the menu rules and the pre-deploy checks',
    (_name, def) => {
      const version = buildTemplateVersion(def);
      for (const menu of version.menus) expect(validateMenu(menu, version.menus), menu.userDefinedName).toEqual([]);
      expect(lintApp(version)).toEqual([]);
    },
  );

  it('Airtime Top-Up: another number, a refused amount, confirm, pay', async () => {
    const run = await dial('Airtime Top-Up', '*920*11#', ['2', '0241234567', '900', '20', '1']);
    expect(run.screens).toEqual([
      'Airtime Top-Up\n1. My number\n2. Another number',
      'Enter the phone number to top up',
      'Enter amount (GHS 1 - 500)',
      'The amount must be from GHS 1 to 500\nEnter amount (GHS 1 - 500)',
      'Top up 0241234567 with GHS 20?\n1. Confirm\n2. Cancel',
      'Approve the GHS 20 prompt on your phone. Ref PAY-123',
    ]);
    expect(run.end).toBe(true);
  });

  it('Pay a Merchant: merchant and amount come from the dialled string', async () => {
    const run = await dial('Pay a Merchant', '*920*12*4471*35#', ['1']);
    expect(run.screens).toEqual([
      'Pay GHS 35 to merchant 4471?\n1. Pay now\n2. Cancel',
      'Approve GHS 35 on your phone to pay merchant 4471. Ref PAY-123',
    ]);
  });

  it('Community Poll counts the chosen label', async () => {
    const run = await dial('Community Poll', '*920*13#', ['2']);
    expect(run.screens[1]).toBe('Thank you! Your vote for School library has been counted.');
    expect(run.state.inputs).toMatchObject({ vote: '2', voteLabel: 'School library' });
  });

  it('Customer Survey validates the rating and goes back', async () => {
    const run = await dial('Customer Survey', '*920*14#', ['9', '4', '0', '5', '1', 'Great service']);
    expect(run.screens[1]).toBe('Reply with a number from 1 to 5\nHow happy are you with our service? Reply 1 (poor) to 5 (excellent)');
    expect(run.screens[3]).toMatch(/^How happy are you/);
    expect(run.screens.at(-1)).toBe('Thank you! You rated us 5/5 and would recommend us.');
  });

  it('Balance Enquiry reads the balance from the REST API', async () => {
    const run = await dial('Balance Enquiry', '*920*15#', ['12345', '123456']);
    expect(run.screens[1]).toBe('Account numbers have 6 digits\nEnter your 6-digit account number');
    const account = getDemoBankAccount('123456');
    expect(run.screens[2]).toBe(`${account.name}, your balance is KES ${account.balance}`);
  });

  it('Event Registration greets by name and confirms the day', async () => {
    const run = await dial('Event Registration', '*920*16#', ['Esi', '3']);
    expect(run.screens).toEqual([
      'Tech Summit Accra\nEnter your first name',
      'Hello Esi, pick a day\n1. Friday workshops\n2. Saturday talks\n3. Both days',
      "You're registered for Both days, Esi. We'll text your confirmation.",
    ]);
  });

  it('ends cleanly with a clear screen when an action cannot run', async () => {
    const unreachable = async () => ({ ok: false as const, error: 'connect ECONNREFUSED' });
    const run = await dial('Balance Enquiry', '*920*15#', ['123456'], unreachable);
    expect(run.screens[1]).toBe('We could not reach the bank. Please try again later.');
    expect(run.end).toBe(true);
  });
});

describe('templates written as data', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dialflow-templates-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const poll = templates.find((t) => t.appName === 'Community Poll')!;
  /** Writes a template file and reads it back with the loader. */
  function readWritten(name: string, content: unknown) {
    const file = join(dir, name);
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
    return () => readTemplateFile(pathToFileURL(file));
  }

  it("puts this server's address where a file says $SANDBOX_ORIGIN", () => {
    const text = JSON.stringify(getFeaturedTemplates('https://dial.example'));
    expect(text).not.toContain('$SANDBOX_ORIGIN');
    const balance = getFeaturedTemplates('https://dial.example').find((t) => t.appName === 'Balance Enquiry')!;
    expect(balance.menus[1]!.actions![0]!.code).toMatchObject({
      url: 'https://dial.example/api/sandbox/accounts/{{ session.inputs.account }}',
    });
  });

  it('reads a valid file back as it was written', () => {
    expect(readWritten('poll.json', poll)()).toEqual(poll);
  });

  it('refuses a file that is not a template, naming the file and the field', () => {
    expect(readWritten('broken.json', '{ "appName": ')).toThrow(/broken\.json is not valid JSON/);
    expect(readWritten('typo.json', { ...poll, shortcode: '*1#' })).toThrow(/typo\.json does not pass its checks: .*shortcode/);
    const noMethod = { ...poll, menus: [{ ...poll.menus[0], validations: [{ errorMessage: 'Pick 1 to 3' }] }, poll.menus[1]] };
    expect(readWritten('no-method.json', noMethod)).toThrow(
      /no-method\.json does not pass its checks: menus\.0\.validations\.0\.validationMethod/,
    );
    const lost = { ...poll, menus: [{ ...poll.menus[0], routes: [['eq', '1', { goto: 'nowhere' }]] }, poll.menus[1]] };
    expect(readWritten('lost.json', lost)).toThrow(
      /lost\.json does not pass its checks: menus\.0\.routes\.0: no menu has the key "nowhere"/,
    );
  });
});
