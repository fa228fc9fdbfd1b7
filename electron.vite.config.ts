import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

// The main bundle has two entries: the Electron main process and the plain-Node CLI
// (`serve`). They share the core; only `electron/main.ts` imports `electron`.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // zod is bundled rather than loaded from node_modules: its ~95 ES modules, each resolved,
      // read and linked at start, were a fifth of the host's start-up CPU (issue 23, cold start).
      // The ACP SDK is bundled too, so it shares that one zod; it lands in the chunks loaded by
      // `import()` when the first agent starts (agentConnection) or by `agent-server`.
      externalizeDeps: { exclude: ['zod', '@agentclientprotocol/sdk'] },
      rolldownOptions: {
        input: {
          index: resolve(import.meta.dirname, 'src-main/electron/main.ts'),
          cli: resolve(import.meta.dirname, 'src-main/cli.ts'),
          // The search index's worker thread (src-main/history/searchProxy.ts starts out/main/searchWorker.js).
          searchWorker: resolve(import.meta.dirname, 'src-main/history/searchWorker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload can require only 'electron': bundle everything else (zod, via the contract).
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve(import.meta.dirname, 'src-main/electron/preload.ts') },
        // A sandboxed preload must be CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src-renderer',
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      // `RENDERER_MINIFY=0 npm run build`: readable function names in page CPU profiles (bench:stream --profile).
      minify: process.env.RENDERER_MINIFY !== '0',
      rolldownOptions: { input: resolve(import.meta.dirname, 'src-renderer/index.html') },
    },
  },
});
