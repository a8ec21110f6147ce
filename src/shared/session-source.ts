/**
 * Where a session came from: a gateway calling the app's live URL, a gateway (or curl) calling its test URL,
 * or the console's emulator. Test URL and emulator sessions run the draft; only live ones are real traffic.
 */
export const SESSION_SOURCES = ['live', 'test', 'emulator'] as const;
export type SessionSource = (typeof SESSION_SOURCES)[number];

export const SESSION_SOURCE_LABELS: Record<SessionSource, string> = { live: 'Live', test: 'Test URL', emulator: 'Emulator' };

/** A session's source from what its record keeps: the environment (`live`, `test`) and the gateway (`emulator`, `africastalking`...). */
export function getSessionSource(environment: string, gateway: string): SessionSource {
  if (environment === 'live') return 'live';
  return gateway === 'emulator' ? 'emulator' : 'test';
}
