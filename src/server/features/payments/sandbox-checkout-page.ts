/** The sandbox checkout page: server-rendered, no script, every value escaped. */

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export interface CheckoutPageModel {
  reference: string;
  amount: string;
  currency: string;
  mobile: string;
  network: string;
  status: string;
}

const STATUS_TEXT: Record<string, { title: string; text: string; tone: string }> = {
  PENDING: {
    title: 'Approve this payment?',
    text: 'This is the Dialflow payment sandbox: no money moves. Approve or decline to see how your app handles each answer.',
    tone: '#b26a00',
  },
  SUCCESS: { title: 'Payment approved', text: 'The app was told the payment succeeded. You can close this page.', tone: '#1b7f3b' },
  FAILED: { title: 'Payment declined', text: 'The app was told the payment failed. You can close this page.', tone: '#b3261e' },
};

/** The page's own path: the reference and the checkout token its link carried. */
export const buildCheckoutPath = (reference: string, token: string) =>
  `/payments/sandbox/${encodeURIComponent(reference)}?token=${encodeURIComponent(token)}`;

/** `token` is the one the page was opened with (already checked): the form sends it back with the decision. */
export function renderCheckoutPage(model: CheckoutPageModel, token: string): string {
  const state = STATUS_TEXT[model.status] ?? STATUS_TEXT.PENDING!;
  const e = escapeHtml;
  const action = `/payments/sandbox/${encodeURIComponent(model.reference)}/decide`;
  const buttons =
    model.status === 'PENDING'
      ? `<form method="post" action="${e(action)}" class="actions">
      <input type="hidden" name="token" value="${e(token)}">
      <button type="submit" name="decision" value="decline" class="decline">Decline</button>
      <button type="submit" name="decision" value="approve" class="approve">Approve</button>
    </form>`
      : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Sandbox checkout · ${e(model.reference)}</title>
<style>
  :root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f1f3f5; color: #212529; }
  *, *::before, *::after { box-sizing: border-box; }
  main { width: min(420px, calc(100vw - 32px)); background: #fff; border-radius: 16px; box-shadow: 0 8px 30px rgba(0,0,0,.08); padding: 28px; }
  .badge { display: inline-block; font-size: 12px; font-weight: 600; letter-spacing: .04em; text-transform: uppercase; color: #495057; background: #e9ecef; border-radius: 999px; padding: 4px 10px; }
  h1 { font-size: 20px; margin: 16px 0 4px; color: ${state.tone}; }
  p { margin: 0 0 20px; color: #495057; line-height: 1.45; }
  .amount { font-size: 36px; font-weight: 700; margin: 8px 0 20px; font-variant-numeric: tabular-nums; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: 8px 16px; margin: 0 0 24px; font-size: 14px; }
  dt { color: #868e96; } dd { margin: 0; text-align: right; font-family: ui-monospace, monospace; word-break: break-all; }
  .actions { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
  button { font: inherit; font-weight: 600; border: 0; border-radius: 10px; padding: 12px; cursor: pointer; }
  .approve { background: #1b7f3b; color: #fff; } .decline { background: #f1f3f5; color: #b3261e; border: 1px solid #dee2e6; }
  button:focus-visible { outline: 3px solid #4dabf7; outline-offset: 2px; }
</style>
</head>
<body>
<main>
  <span class="badge">Sandbox checkout</span>
  <h1>${e(state.title)}</h1>
  <p>${e(state.text)}</p>
  <div class="amount" aria-label="Amount">${e(model.currency)} ${e(model.amount)}</div>
  <dl>
    <dt>Mobile</dt><dd>${e(model.mobile || '-')}</dd>
    <dt>Network</dt><dd>${e(model.network || '-')}</dd>
    <dt>Reference</dt><dd>${e(model.reference)}</dd>
    <dt>Status</dt><dd data-status="${e(model.status)}">${e(model.status)}</dd>
  </dl>
  ${buttons}
</main>
</body>
</html>`;
}
