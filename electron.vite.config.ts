import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';

/**
 * `<link rel="modulepreload">` (and a preload of its CSS) in index.html for the chunks a session
 * view always needs: the session view's chunk and every chunk it imports. They are `import()`ed
 * so the agent list does not wait for them, but fetched only once index.js had run, one
 * round trip later; preloaded, the browser fetches them beside index.js (served from the build's
 * `.br` copies: `scripts/precompress.mjs`). Issue 23, round 4: open.
 */
function preloadChunks(entries: RegExp[]): Plugin {
  return {
    name: 'acp:preload-chunks',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        if (!bundle) return [];
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
        const byName = new Map(chunks.map((c) => [c.fileName, c]));
        // Every entry (index.js and the early script) and what it imports is loaded already.
        const already = new Set(chunks.filter((c) => c.isEntry).flatMap((c) => [c.fileName, ...c.imports]));
        const files = new Set<string>();
        const css = new Set<string>();
        const visit = (fileName: string) => {
          const chunk = byName.get(fileName);
          if (!chunk || files.has(fileName) || already.has(fileName)) return;
          files.add(fileName);
          for (const file of (chunk as { viteMetadata?: { importedCss: Set<string> } }).viteMetadata?.importedCss ?? []) css.add(file);
          chunk.imports.forEach(visit);
        };
        for (const chunk of chunks) if (chunk.facadeModuleId && entries.some((e) => e.test(chunk.facadeModuleId!))) visit(chunk.fileName);
        return [
          ...[...files].map((f) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `./${f}` }, injectTo: 'head' as const })),
          ...[...css].map((f) => ({ tag: 'link', attrs: { rel: 'preload', as: 'style', crossorigin: true, href: `./${f}` }, injectTo: 'head' as const })),
        ];
      },
    },
  };
}

/**
 * The early script (src-renderer/early.ts, a second entry of the renderer's build) as the first
 * script of index.html, `async` so it runs as soon as it arrives rather than after index.js: it
 * opens the host's socket and asks for the app state and the shown tab's window while index.js
 * loads and runs (bridge/earlySocket.ts; issue 23, round 5). After the CSP's meta, which must
 * precede every script it governs; its own imports are preloaded beside it.
 */
function earlyEntry(entry: RegExp): Plugin {
  return {
    name: 'acp:early-entry',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return html;
        const chunk = Object.values(bundle).find((c) => c.type === 'chunk' && c.isEntry && c.facadeModuleId && entry.test(c.facadeModuleId));
        if (!chunk || chunk.type !== 'chunk') throw new Error('acp:early-entry: the early script is not in the build');
        const tags = [
          `<script type="module" async crossorigin src="./${chunk.fileName}"></script>`,
          ...chunk.imports.filter((f) => !html.includes(f)).map((f) => `<link rel="modulepreload" crossorigin href="./${f}">`),
        ];
        const at = html.indexOf('<script');
        if (at < 0) throw new Error('acp:early-entry: index.html has no script to put the early script before');
        return `${html.slice(0, at)}${tags.join('\n    ')}\n    ${html.slice(at)}`;
      },
    },
  };
}

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
    plugins: [react(), preloadChunks([/[\\/]features[\\/]chat[\\/]SessionViews\.tsx$/]), earlyEntry(/[\\/]src-renderer[\\/]early\.ts$/)],
    build: {
      outDir: 'out/renderer',
      // `RENDERER_MINIFY=0 npm run build`: readable function names in page CPU profiles (bench:stream --profile).
      minify: process.env.RENDERER_MINIFY !== '0',
      rolldownOptions: {
        input: { index: resolve(import.meta.dirname, 'src-renderer/index.html'), early: resolve(import.meta.dirname, 'src-renderer/early.ts') },
      },
    },
  },
});
