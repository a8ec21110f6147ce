/**
 * What builder code can reach in the JavaScript sandbox (actions, validation functions, custom functions):
 * the body of `async function (session, input, actions, log)`. The code editors offer these as completions;
 * src/actions/javascript/sandbox.test.ts runs each expression in the sandbox, so the list cannot promise
 * what the sandbox does not give.
 */

export interface JavascriptSdkEntry {
  /** The expression as typed, or a snippet (`kind: 'snippet'`). */
  label: string;
  kind: 'object' | 'value' | 'function' | 'snippet';
  info?: string;
  /** The text a completion inserts, when not the label. */
  apply?: string;
}

export const JAVASCRIPT_SDK: readonly JavascriptSdkEntry[] = [
  { label: 'session', kind: 'object', info: 'The session: mobile, network, serviceCode, sessionId, inputs, media, vars' },
  { label: 'session.mobile', kind: 'value', info: "The caller's number" },
  { label: 'session.network', kind: 'value', info: "The caller's network" },
  { label: 'session.serviceCode', kind: 'value', info: 'The code dialled' },
  { label: 'session.sessionId', kind: 'value' },
  { label: 'session.inputs', kind: 'object', info: 'What the user typed, by menu identifier: session.inputs.amount' },
  {
    label: 'session.media',
    kind: 'object',
    info: 'Files and locations a bot received, by menu identifier: session.media.photo.url (a signed link), .mimeType, .size, .caption; .latitude, .longitude',
  },
  { label: 'session.vars', kind: 'object', info: 'Variables: dial-string tags and values set by earlier scripts ({ vars: {...} })' },
  { label: 'input', kind: 'value', info: 'What the user typed for this screen (a string)' },
  { label: 'actions', kind: 'object', info: "Earlier actions' results by action name, e.g. actions.lookup.body" },
  { label: 'log', kind: 'function', apply: 'log()', info: 'log(...) is log.info(...): a line in the app logs' },
  { label: 'log.info', kind: 'function', apply: 'log.info()', info: 'An info line in the app logs' },
  { label: 'log.debug', kind: 'function', apply: 'log.debug()', info: 'A debug line (console.log too)' },
  { label: 'log.error', kind: 'function', apply: 'log.error()', info: 'An error line (console.warn and console.error too)' },
  { label: 'console.log', kind: 'function', apply: 'console.log()', info: 'Same as log.debug' },
  { label: 'contact', kind: 'object', info: "The caller's contact: contact.get(key), contact.set(key, value)" },
  {
    label: 'contact.get',
    kind: 'function',
    apply: 'contact.get("name")',
    info: 'A contact field: "name", "language" or an attribute key; null when unset',
  },
  {
    label: 'contact.set',
    kind: 'function',
    apply: 'contact.set("city", "Accra")',
    info: 'Keeps a value on the contact: "name" or an attribute key (not language), text up to 500 characters',
  },
  { label: 'return { goto: "menuIdentifier" };', kind: 'snippet', info: 'Go to a menu' },
  { label: 'return { end: "Thank you" };', kind: 'snippet', info: 'End the session with this text' },
  { label: 'return { vars: {} };', kind: 'snippet', info: 'Set session variables' },
];
