/**
 * A javascript pool worker: one QuickJS WebAssembly module, one job at a time (pool.ts never sends a
 * second before the first is answered). Started through worker-entry.mjs, which makes this TypeScript file
 * loadable in a plain worker thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC, type QuickJSWASMModule } from 'quickjs-emscripten';
import { DEFAULT_JS_LIMITS, type JsLimits, type RunMessage, type WorkerMessage } from './limits';
import { runInSandbox } from './sandbox';
import { readThreadId } from './thread-cpu';

const port = parentPort;
if (!port) throw new Error('worker.ts runs only as a worker thread');

const limits: JsLimits = { ...DEFAULT_JS_LIMITS, ...(workerData as { limits?: Partial<JsLimits> } | undefined)?.limits };
const WASM_PAGE = 64 * 1024;
/** The build's own initial memory (16 MB): its static data and C stack live there, leaving the rest for the heap. */
const INITIAL_BYTES = 16 * 1024 * 1024;

/**
 * QuickJS's malloc limit does not count large strings and ArrayBuffers in this build (their usable size
 * reads as 0 under emscripten, quickjs-emscripten issue #271), so a script could grow the module's memory
 * to 2 GB under a "32 MB" limit. A WebAssembly memory with a maximum closes that: past it, growth fails,
 * malloc returns NULL and QuickJS throws "out of memory" like for any other allocation.
 */
const MAXIMUM_PAGES = Math.ceil((INITIAL_BYTES + limits.memoryBytes) / WASM_PAGE);

async function createModule(): Promise<QuickJSWASMModule> {
  const wasmMemory = new WebAssembly.Memory({ initial: INITIAL_BYTES / WASM_PAGE, maximum: MAXIMUM_PAGES });
  return newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory }));
}

let module = await createModule();
let chain: Promise<void> = Promise.resolve();

function post(message: WorkerMessage): void {
  port!.postMessage(message);
}

async function handle(message: RunMessage): Promise<void> {
  const memory = module.getWasmMemory();
  // Within 1 MB of the ceiling: a failed allocation of any size above that is out of memory.
  const run = runInSandbox(module, message, () => memory.buffer.byteLength >= MAXIMUM_PAGES * WASM_PAGE - 1024 * 1024);
  post({ type: 'done', id: message.id, outcome: run.outcome, cpuMs: run.cpuMs });
  // After a wasm-level failure, or a heap that ran full, the next tenant gets a fresh module (about 10 ms):
  // nothing of this run's memory, fragmentation included, is left behind.
  if (run.isModuleSuspect || run.isOutOfMemory) module = await createModule();
}

port.on('message', (message: RunMessage) => {
  if (message?.type !== 'run') return;
  chain = chain
    .then(() => handle(message))
    .catch((err: unknown) => {
      // Nothing sensible is left to do in this thread; the pool sees the exit and starts a replacement.
      console.error('javascript worker failed', err);
      process.exit(1);
    });
});

post({ type: 'ready', tid: readThreadId() });
