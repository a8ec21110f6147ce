/**
 * Screens load their code on first visit (router.tsx). A tab opened before a deploy still runs the old build, whose
 * chunks the deploy removed: the server answers 404 for them, and the screen's import fails. The new build is then
 * loaded by reloading the page, once; a chunk that fails while the build is unchanged is the network's doing, and
 * reloading would not help.
 */

/** Set when the page reloaded for a new build; a second failure soon after is not met by another reload. */
const RELOADED_AT_KEY = 'dialflow:reloaded-for-new-build';
const RELOAD_GUARD_MS = 60_000;

/**
 * True for a screen's code that did not load: the browser's failed `import()` (Chromium: 'Failed to fetch
 * dynamically imported module', Firefox: 'error loading dynamically imported module', Safari: 'Importing a module
 * script failed') or Vite's failed style sheet preload ('Unable to preload CSS').
 */
export function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof Error && /dynamically imported module|importing a module script failed|unable to preload css/i.test(error.message)
  );
}

/** The entry script of the running build, as index.html names it (`/assets/index-3hX9.js`). */
function findRunningEntry(): string | null {
  return document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.getAttribute('src') ?? null;
}

/** True when the server's index.html names another entry script than the running page's: a deploy since it loaded. */
export async function isNewBuildDeployed(): Promise<boolean> {
  const running = findRunningEntry();
  if (!running) return false;
  try {
    const res = await fetch('/', { cache: 'no-store', headers: { accept: 'text/html' } });
    return res.ok && !(await res.text()).includes(running);
  } catch {
    return false;
  }
}

/** Reloads the page unless it did so for a new build in the last minute; false when it did not. */
export function reloadForNewBuild(): boolean {
  const reloadedAt = Number(sessionStorage.getItem(RELOADED_AT_KEY) ?? 0);
  if (Date.now() - reloadedAt < RELOAD_GUARD_MS) return false;
  sessionStorage.setItem(RELOADED_AT_KEY, String(Date.now()));
  window.location.reload();
  return true;
}
