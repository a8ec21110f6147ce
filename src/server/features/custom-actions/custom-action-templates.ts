/** Example functions offered in the editor's 'Select a template' list (GET /api/template/custom-actions). */
export const CUSTOM_ACTION_TEMPLATES = [
  {
    uuid: 'tpl-format-amount',
    actionName: 'formatAmount',
    code: `// Formats the amount the caller typed as money, for the next screen.
const amount = Number(session.inputs.amount || 0);
log.info('formatting ' + amount);
return { vars: { amountText: 'GHS ' + amount.toFixed(2) } };`,
  },
  {
    uuid: 'tpl-check-number',
    actionName: 'checkGhanaNumber',
    code: `// Checks a Ghana mobile number typed as 0241234567 and turns it into 233241234567.
const typed = String(input || '').replace(/\\s+/g, '');
if (!/^0[2-5][0-9]{8}$/.test(typed)) {
  return { end: 'That number is not valid. Please dial again.' };
}
return { vars: { recipient: '233' + typed.slice(1) } };`,
  },
  {
    uuid: 'tpl-fee',
    actionName: 'computeFee',
    code: `// A 1% fee, at least GHS 0.50 and at most GHS 10, added to the amount.
const amount = Number(session.inputs.amount || 0);
const fee = Math.min(10, Math.max(0.5, amount * 0.01));
return { amount, fee: Number(fee.toFixed(2)), total: Number((amount + fee).toFixed(2)) };`,
  },
  {
    uuid: 'tpl-read-api',
    actionName: 'readBalance',
    code: `// Reads a REST action's result (actions.lookup) and steers the session.
const lookup = actions.lookup || {};
if (!lookup.ok) {
  log.error('lookup failed with status ' + lookup.status);
  return { goto: 'tryAgain' };
}
return { vars: { balance: lookup.body.balance, holder: lookup.body.name } };`,
  },
] as const;
