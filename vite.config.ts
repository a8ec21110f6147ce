import { defineConfig, type Plugin, type ResolvedConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { precompressDir } from './scripts/precompress.ts';

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

/*
 * How the console's code is cut into files (docs/architecture.md, "The console's code"). Every screen but the home
 * page loads its code on first visit (the `lazy` routes of each area's `*.routes.tsx`); left to itself, the
 * bundler then makes a file of every set of modules a different set of screens shares, some 190 files, a designer
 * visit fetching 70 of them. On a mobile connection each request costs a round trip, so the groups below make fewer,
 * larger files, each downloaded by the screens that need it and no others:
 *   framework, ui   React, the router, TanStack Query; Mantine and the icons: every screen, and they change less
 *                   often than our code, so a browser keeps them across deploys.
 *   codemirror      the code editor: the designer and the custom action editor only.
 *   site            what the home page needs (main.tsx's static imports): the first download.
 *   public          the other public pages and the sign-in screens (PUBLIC_SCREENS): one file, loaded on the first
 *                   visit to any of them.
 *   emulator        the USSD emulator: the public site's Test Run and the console's emulator both open it, so it
 *                   is a file of its own, never merged with a console screen (a Test Run would then load the console).
 *   console         the console's layout (header, sidebar, the signed-in user): every console screen.
 *   console-shared  code shared by several screens, one file per set of screens sharing it, the small ones merged.
 * What is left (a screen's own code, a library only it uses: recharts for the dashboard, React Flow for the flow
 * map) stays in the screen's own file.
 */

/** The screens outside the console, besides the home page: the public site's pages and the sign-in screens. */
const PUBLIC_SCREENS =
  /[\\/]src[\\/]web[\\/]features[\\/](public[\\/][\w-]+-page|auth[\\/](login|register|password-forgot|password-reset|merchant-login|logout)-page)\.tsx$/;
const EMULATOR = /[\\/]src[\\/]web[\\/]features[\\/]emulator[\\/]emulator-home-page\.tsx$/;
const CONSOLE_LAYOUT = /[\\/]src[\\/]web[\\/]features[\\/]console[\\/]console-layout\.tsx$/;
const MAIN = /[\\/]src[\\/]web[\\/]main\.tsx$/;

/** The modules each part reaches by static imports, each part without the ones before it; measured once the module graph is complete. */
const reach = { site: new Set<string>(), public: new Set<string>(), emulator: new Set<string>(), console: new Set<string>() };

type ModuleGraph = { getModuleInfo: (id: string) => { importedIds: readonly string[] } | null };

function findStaticClosure(graph: ModuleGraph, starts: string[], outside: Set<string>): Set<string> {
  const seen = new Set<string>();
  const stack = [...starts];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id) || outside.has(id)) continue;
    seen.add(id);
    stack.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

/** Fills `reach` after the modules are loaded and before chunks are made (when the groups' tests run). */
function measureReach(): Plugin {
  return {
    name: 'dialflow:measure-reach',
    apply: 'build',
    buildEnd() {
      const ids = [...this.getModuleIds()];
      reach.site = findStaticClosure(
        this,
        ids.filter((id) => MAIN.test(id)),
        new Set(),
      );
      reach.public = findStaticClosure(
        this,
        ids.filter((id) => PUBLIC_SCREENS.test(id)),
        reach.site,
      );
      reach.emulator = findStaticClosure(
        this,
        ids.filter((id) => EMULATOR.test(id)),
        new Set([...reach.site, ...reach.public]),
      );
      reach.console = findStaticClosure(
        this,
        ids.filter((id) => CONSOLE_LAYOUT.test(id)),
        new Set([...reach.site, ...reach.public, ...reach.emulator]),
      );
    },
  };
}

export default defineConfig({
  root,
  plugins: [react(), measureReach(), precompress()],
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    // The largest chunk is the code editor (CodeMirror and its parser, 515 kB minified, 145 kB as brotli), which only
    // the designer and the custom action editor load; every other chunk stays under Vite's 500 kB.
    chunkSizeWarningLimit: 550,
    rolldownOptions: {
      output: {
        // Modules run in source order whichever file holds them: the API's call declarations build schemas from
        // other modules' schemas as they load, and the merged console-shared files can import each other, where a
        // file's code could otherwise run before the schemas it reads (the sessions screens failed so).
        strictExecutionOrder: true,
        // Chunks shared by a set of screens are named after all of them (`console-shared~app-list-page~...`): one name will do.
        chunkFileNames: (chunk) =>
          chunk.name.startsWith('console-shared~') ? 'assets/console-shared-[hash].js' : 'assets/[name]-[hash].js',
        codeSplitting: {
          groups: [
            {
              name: 'framework',
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser|@tanstack[\\/][\w-]+)[\\/]/,
              priority: 60,
            },
            {
              name: 'ui',
              test: /[\\/]node_modules[\\/](@mantine[\\/](core|hooks|notifications|modals|store)|@floating-ui[\\/][\w-]+|@tabler[\\/]icons-react|react-transition-group|react-remove-scroll|react-remove-scroll-bar|use-sidecar|use-callback-ref|react-style-singleton|get-nonce|tslib|clsx|react-number-format|@babel[\\/]runtime)[\\/]/,
              priority: 50,
            },
            { name: 'codemirror', test: /[\\/]node_modules[\\/](@codemirror|@uiw|@marijn|crelt|style-mod|w3c-keyname)[\\/]/, priority: 45 },
            { name: 'site', test: (id) => reach.site.has(id), priority: 40 },
            { name: 'public', test: (id) => reach.public.has(id), priority: 30 },
            { name: 'emulator', test: (id) => reach.emulator.has(id), priority: 25 },
            { name: 'console', test: (id) => reach.console.has(id), priority: 20 },
            {
              name: 'console-shared',
              test: () => true,
              minShareCount: 2,
              entriesAware: true,
              entriesAwareMergeThreshold: 20_000,
              priority: 10,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/ussd': 'http://localhost:3000',
      '/ussd-emulator': 'http://localhost:3000',
    },
  },
});
