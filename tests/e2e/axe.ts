import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';
import { waitForAnimations } from './browser';

/** axe-core in the browser, for the accessibility sweep and for tests that check a state of their own. */

// Evaluated through the DevTools protocol: the server's Content-Security-Policy (script-src 'self') refuses an
// injected <script> tag, and the page is tested as it is served.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const FAILING_IMPACTS = new Set(['serious', 'critical']);

export interface Finding {
  rule: string;
  impact: string;
  help: string;
  /** Each element's selector, then what axe found wrong with it (the colours and ratio, the missing name...). */
  targets: string[];
}

/**
 * Runs axe on the page once its animations have settled (a dialog fading in reads as text the colour of its
 * background) and returns its serious and critical violations.
 */
export async function findViolations(page: Page): Promise<Finding[]> {
  await waitForAnimations(page);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  // Only the violations are read: axe skips gathering the nodes of every passed and inapplicable rule.
  const results = await page.evaluate(() =>
    (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } }).axe.run(document, {
      resultTypes: ['violations'],
    }),
  );
  return results.violations
    .filter((violation) => FAILING_IMPACTS.has(violation.impact ?? ''))
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? '',
      help: violation.help,
      targets: violation.nodes.map((node) => `${node.target.join(' ')} :: ${node.failureSummary?.replace(/\s+/g, ' ') ?? ''}`),
    }));
}
