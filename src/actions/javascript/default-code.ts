/**
 * The code a new javascript action starts with, also served by `GET /api/docs/javascript`: the SDK taught
 * by an example that runs as it stands (default-code.test.ts runs it in the sandbox).
 */
export const DEFAULT_JAVASCRIPT_CODE = `// This code runs on our servers each time the action runs, as the body of
//   async function (session, input, actions, log) { ... }
// so \`return\` hands back the action's result and \`await\` works.
//
// What you can read (plain JSON copies; changing them changes nothing outside):
//   session.mobile, session.network, session.serviceCode, session.sessionId
//   session.inputs.<menuIdentifier>   what the user typed at that menu ("1", "0241234567", ...)
//   session.inputs.<menuIdentifier>Label   the option text they chose ("Data"), when there is one
//   session.vars.<name>               variables: dial-string tags and values set by earlier scripts
//   input                             what the user typed for this screen (a string)
//   actions.<actionName>              an earlier action's result, e.g. a Rest Api call's
//                                     { status, ok, headers, body } (body parsed when JSON)
//
// log(...) writes a line to the app's logs; it is short for log.info(...). There are also
// log.debug(...) and log.error(...); console.log(...) is log.debug(...).
// An error names the line, e.g. "log.warn is not a function: use log(), ... (line 3)".
//
// Limits: 250 ms of CPU, 3 s in all, 32 MB of memory, 64 KB of logs and result together.
// There is no network, no timers, no require/import and no process: call APIs with a Rest Api
// action before this one and read its result from \`actions\`.

const amount = Number(session.inputs.amount || input);
log.info("Checking balance for", session.mobile, "amount", amount);

// The result of an earlier Rest Api action named "getBalance", if the menu has one.
const account = actions.getBalance ? actions.getBalance.body : null;
const balance = account && typeof account.balance === "number" ? account.balance : 0;

if (!Number.isFinite(amount) || amount <= 0) {
  log.error("Not an amount:", input);
  // Steer: show another menu (its identifier)...
  return { goto: "enterAmount" };
}

if (amount > balance) {
  // ...or end the session with this text.
  return { end: "Sorry, your balance of GHS " + balance.toFixed(2) + " is too low." };
}

// Anything else you return is this action's result: later templates read it as
// {{ actions.<thisActionName>.remaining }}. \`vars\` also sets session variables,
// read as {{ session.vars.lastAmount }} in any later screen.
return {
  remaining: balance - amount,
  vars: { lastAmount: amount },
};
`;
