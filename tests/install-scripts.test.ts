import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

/**
 * `npm install` runs no dependency's install script unreviewed: every package of the lock file that has one is named
 * in package.json's `allowScripts` (README, "Installing"), so npm 11 prints no "install scripts not yet covered"
 * line. A dependency that gains a script fails this until someone reviews it and names it there.
 */
it("names every dependency with an install script in package.json's allowScripts", () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { allowScripts?: Record<string, boolean> };
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
    packages: Record<string, { hasInstallScript?: boolean }>;
  };
  const withScripts = Object.entries(lock.packages)
    .filter(([, entry]) => entry.hasInstallScript)
    .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
  expect(withScripts.length).toBeGreaterThan(0);
  const reviewed = Object.keys(pkg.allowScripts ?? {});
  expect([...new Set(withScripts)].filter((name) => !reviewed.includes(name))).toEqual([]);
});
