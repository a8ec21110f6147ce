// Starts worker.ts in a plain worker thread. A worker does not inherit the loader that lets the main thread
// import TypeScript when that loader came from vitest (it transforms in-process) or from tsx's API, so the
// worker registers tsx itself, scoped to this import (tsImport), which also works when the process was
// started with `tsx` (whose hooks the worker may already have: the scoped loader only handles its own chain).
import { tsImport } from 'tsx/esm/api';

await tsImport('./worker.ts', import.meta.url);
