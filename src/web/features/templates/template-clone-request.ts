const INTENT_KEY = 'dialflow.cloneIntent';

/**
 * Remembers, in this tab only, that the visitor pressed Clone on a template before signing in, so the clone goes
 * ahead by itself once they have. A link to `?clone=` alone only opens the dialog: nobody else's link copies an
 * app into an account without its owner pressing Clone.
 */
export function rememberCloneIntent(appId: string): void {
  sessionStorage.setItem(INTENT_KEY, appId);
}

/** Whether the visitor pressed Clone on this template before signing in; the intent is used up either way. */
export function takeCloneIntent(appId: string): boolean {
  const isIntended = sessionStorage.getItem(INTENT_KEY) === appId;
  sessionStorage.removeItem(INTENT_KEY);
  return isIntended;
}
