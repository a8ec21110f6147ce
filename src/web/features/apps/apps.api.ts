// The apps' calls are declared in src/shared/api/apps.calls.ts.

/** The redirect after creating an app or saving its settings. */
export const SAVE_REDIRECT_MS = 1000;
