/**
 * Messages between bench/run.ts and a server child (Node IPC). Every child answers the same commands, so
 * the harness treats the bare server and Dialflow alike.
 */
/** `path`: where the load sends its hops, when not the app's own live URL (the provider target's). */
export type ChildReady = { type: 'ready'; port: number; appId: string; info: string; path?: string };
export type ChildFailed = { type: 'failed'; error: string };

/** CPU and event-loop use since the last `mark` (what the child spent while the load ran). */
export interface ChildUsage {
  cpuUserMs: number;
  cpuSystemMs: number;
  wallMs: number;
  /** Event loop utilisation 0..1: near 1 means the main thread was the bottleneck. */
  elu: number;
  /** How late timers fired (the longest the loop was blocked), in ms: p99 and max over the window. */
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  /** Garbage-collection pauses in the window: their sum and the longest one, in ms. */
  gcTotalMs: number;
  gcMaxMs: number;
  rssMb: number;
  /** Connections the server has accepted and holds open now (of the load's N), and accepted in all. */
  openConnections: number;
  acceptedConnections: number;
}

/** Figures only the Dialflow child has: what the event sink wrote, for a cross-check against the load. */
export interface ChildCounts {
  completedSessions: number;
  logRows: number;
  inputRows: number;
  flushMs: number;
}

export type ParentCommand =
  | { type: 'mark'; id: number }
  | { type: 'usage'; id: number }
  | { type: 'profile-start'; id: number; samplingIntervalUs: number }
  | { type: 'profile-stop'; id: number; file: string }
  | { type: 'counts'; id: number }
  | { type: 'stop'; id: number };

export type ChildReply =
  | { type: 'reply'; id: number; ok: true; usage?: ChildUsage; counts?: ChildCounts; file?: string }
  | { type: 'reply'; id: number; ok: false; error: string };
