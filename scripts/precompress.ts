/**
 * The built console, precompressed once at build time (vite.config.ts runs this after every build): each text
 * file of the output gets a brotli copy (`index-3hX9.js.br`) and a gzip copy (`index-3hX9.js.gz`) beside it, at
 * the highest levels, so the server (src/server/app.ts, @fastify/static's `preCompressed`) only picks the one the
 * browser accepts and never compresses on a request. A copy not smaller than its file is not written, and the
 * file itself stays for clients that accept neither.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** What compresses: text. Images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest|wasm)$/;
/** Below a packet's worth, a compressed copy saves nothing worth a second file. */
const MIN_BYTES = 1024;

export interface PrecompressSummary {
  files: number;
  bytes: number;
  brotliBytes: number;
  gzipBytes: number;
}

async function findFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => (entry.isDirectory() ? findFiles(join(dir, entry.name)) : Promise.resolve([join(dir, entry.name)]))),
  );
  return nested.flat();
}

/** Writes `.br` and `.gz` beside every compressible file of `dir` (recursively); the sizes are for the build's log. */
export async function precompressDir(dir: string): Promise<PrecompressSummary> {
  const summary: PrecompressSummary = { files: 0, bytes: 0, brotliBytes: 0, gzipBytes: 0 };
  const files = (await findFiles(dir)).filter((file) => COMPRESSIBLE.test(file));
  await Promise.all(
    files.map(async (file) => {
      if ((await stat(file)).size < MIN_BYTES) return;
      const content = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(content, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        }),
        gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      summary.files++;
      summary.bytes += content.length;
      summary.brotliBytes += Math.min(br.length, content.length);
      summary.gzipBytes += Math.min(gz.length, content.length);
      if (br.length < content.length) await writeFile(`${file}.br`, br);
      if (gz.length < content.length) await writeFile(`${file}.gz`, gz);
    }),
  );
  return summary;
}
