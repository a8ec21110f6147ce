/**
 * Which URL a hop came in on: `test` runs the app's draft, `live` its last deployed version
 * (`/ussd/{appId}/test`, `/live`). A shortcode's `linkedAppEnv` says `production` for live, on the wire only.
 */
export const ENVIRONMENTS = ['test', 'live'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];
