import type { ConsoleMessage } from './custom-actions.api';

/**
 * The session values a test starts from: mobile empty, inputs with sample values, and the caller's contact that
 * `contact.get` reads (name, language and attributes by key).
 */
export const DEFAULT_SESSION_VALUES = JSON.stringify(
  { mobile: '', inputs: { amount: '20', name: 'Ama' }, contact: { name: 'Ama', city: 'Accra' } },
  null,
  2,
);

/**
 * The action results a test starts from: a sample REST result with status true. Named `getBalance` for the default code and `lookup`
 * for the 'readBalance' template, so both run to a useful result as they stand.
 */
export const DEFAULT_ACTION_RESULTS = JSON.stringify(
  {
    getBalance: { status: true, ok: true, body: { balance: 120, name: 'Ama Mensah' } },
    lookup: { status: true, ok: true, body: { balance: 120, name: 'Ama Mensah' } },
  },
  null,
  2,
);

export type TestInputs = { sessionValues: Record<string, unknown>; actionResults: Record<string, unknown> };

/** A JSON object, or null when the text is not JSON or not an object (the test call takes objects only). */
export function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text.trim() === '' ? '{}' : text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Both textareas as objects, or which of them is not valid. */
export function parseTestInputs(
  sessionText: string,
  resultsText: string,
): { ok: true; inputs: TestInputs } | { ok: false; isSessionBad: boolean; isResultsBad: boolean } {
  const sessionValues = parseJsonObject(sessionText);
  const actionResults = parseJsonObject(resultsText);
  if (sessionValues && actionResults) return { ok: true, inputs: { sessionValues, actionResults } };
  return { ok: false, isSessionBad: !sessionValues, isResultsBad: !actionResults };
}

export type TerminalLineKind = 'info' | 'debug' | 'error' | 'output';

export interface TerminalLine {
  id: number;
  /** HH:MM:SS, local time. */
  time: string;
  kind: TerminalLineKind;
  text: string;
}

export const formatClock = (date: Date) => date.toTimeString().slice(0, 8);

const asKind = (type: string): TerminalLineKind => (type === 'info' || type === 'debug' || type === 'error' ? type : 'debug');

/** The result pretty-printed; `undefined` (a function that returns nothing) has no JSON of its own. */
export function formatOutput(output: unknown): string {
  if (output === undefined) return 'undefined';
  return JSON.stringify(output, null, 2) ?? String(output);
}

let nextId = 1;

export function createTerminalLine(kind: TerminalLineKind, text: string, now = new Date()): TerminalLine {
  return { id: nextId++, time: formatClock(now), kind, text };
}

/**
 * A test run's lines: each console message in order, then the output (none when the run failed with no result),
 * then what its `contact.set` calls would keep on the contact.
 */
export function toTerminalLines(
  reply: { output?: unknown; consoleMessages?: ConsoleMessage[]; contactChanges?: unknown },
  now = new Date(),
): TerminalLine[] {
  const lines = (reply.consoleMessages ?? []).map((m) => createTerminalLine(asKind(m.type), m.message, now));
  const hasError = lines.some((line) => line.kind === 'error');
  // A script error comes back as output null plus an error line; a null output after an error is noise.
  if (!(hasError && reply.output === null)) lines.push(createTerminalLine('output', formatOutput(reply.output), now));
  if (reply.contactChanges) lines.push(createTerminalLine('info', `Contact changes: ${JSON.stringify(reply.contactChanges)}`, now));
  return lines;
}

/** What Copy puts on the clipboard: one line per entry, as the terminal shows them. */
export const formatTerminalText = (lines: TerminalLine[]) =>
  lines.map((line) => `[${line.time}] ${line.kind.toUpperCase()} ${line.text}`).join('\n');
