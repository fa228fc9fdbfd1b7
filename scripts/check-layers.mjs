#!/usr/bin/env node
// Every source file must belong to a known layer (VS Code's "missing definition" check):
// a TypeScript file outside these folders would escape the layer rules in eslint.config.js.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const layers = ['src-shared/', 'src-main/', 'src-renderer/', 'e2e/', 'bench/', 'scripts/'];
const rootFiles = new Set(['electron.vite.config.ts', 'vitest.config.ts', 'playwright.config.ts', 'eslint.config.js']);
const skip = new Set(['node_modules', 'out', 'dist', '.git', 'test-results', 'playwright-report', 'resources', 'docs', '.ci', 'bin']);
const problems = [];

function walk(dir) {
  for (const name of readdirSync(dir)) {
    if (skip.has(name) && dir === root) continue;
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.(ts|tsx|mts|cts)$/.test(name)) {
      const rel = relative(root, path);
      if (!layers.some((layer) => rel.startsWith(layer)) && !rootFiles.has(rel)) problems.push(rel);
    }
  }
}
walk(root);
if (problems.length) {
  console.error(`These files are in no layer (move them under ${layers.join(', ')}):\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('layers: every source file belongs to a layer');
