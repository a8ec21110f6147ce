import { defineConfig, type Plugin, type ResolvedConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { precompressDir } from './scripts/precompress';

const root = fileURLToPath(new URL('./src/web', import.meta.url));

/** After the files are written, a brotli and a gzip copy beside each (scripts/precompress.ts), for the server to send. */
function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'dialflow:precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async writeBundle(options) {
      const { files, bytes, brotliBytes, gzipBytes } = await precompressDir(options.dir ?? config.build.outDir);
      const kb = (n: number) => `${(n / 1024).toFixed(0)} kB`;
      config.logger.info(`precompressed ${files} files: ${kb(bytes)}, brotli ${kb(brotliBytes)}, gzip ${kb(gzipBytes)}`);
    },
  };
}

export default defineConfig({
  root,
  plugins: [react(), precompress()],
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/ussd': 'http://localhost:3000',
      '/ussd-emulator': 'http://localhost:3000',
    },
  },
});
