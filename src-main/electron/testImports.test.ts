import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No Electron binary exists on our machines, and loading the `electron` package makes it try
 * to download one (the test machines have no internet for it). So no test may load `electron`, even indirectly: every
 * module the tests here reach must import it for types only. electron-updater loads it too.
 */
const FORBIDDEN = new Set(['electron', 'electron-updater']);

/** Runtime import specifiers of a TypeScript file (`import type` and `import { type … }`-only lines excluded). */
function runtimeImports(source: string): string[] {
  const found: string[] = [];
  const pattern = /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;
  for (const match of source.matchAll(pattern)) {
    if (match[5] || match[6]) {
      found.push((match[5] ?? match[6])!);
      continue;
    }
    if (match[2]) continue; // import type … / export type …
    const clause = match[3].trim();
    const named = /^\{([^}]*)\}$/.exec(clause);
    if (named && named[1].split(',').every((part) => part.trim() === '' || part.trim().startsWith('type '))) continue;
    found.push(match[4]);
  }
  return found;
}

function resolveLocal(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    try {
      if (readFileSync(candidate)) return candidate;
    } catch {
      // try the next
    }
  }
  return null;
}

/** Every forbidden package a file reaches through its local imports, with the path to it. */
function reachable(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const problems: string[] = [];
  for (const specifier of runtimeImports(readFileSync(file, 'utf8'))) {
    if (FORBIDDEN.has(specifier)) problems.push(`${file} imports '${specifier}'`);
    const local = resolveLocal(file, specifier);
    if (local) problems.push(...reachable(local, seen));
  }
  return problems;
}

describe('tests never load electron', () => {
  it('sees through type-only imports and catches runtime ones', () => {
    expect(runtimeImports("import type { App } from 'electron';\nimport { type Menu } from 'electron';")).toEqual([]);
    expect(runtimeImports("import { app } from 'electron';")).toEqual(['electron']);
    expect(runtimeImports("import { app, type App } from 'electron';")).toEqual(['electron']);
    expect(runtimeImports("const m = await import('electron-updater');")).toEqual(['electron-updater']);
    expect(reachable(join(import.meta.dirname, 'desktopApp.ts')).length).toBeGreaterThan(0);
  });

  // This file is left out: its examples above are strings that look like imports.
  const tests = readdirSync(import.meta.dirname).filter((name) => name.endsWith('.test.ts') && name !== 'testImports.test.ts');
  it.each(tests)('%s reaches no runtime import of electron', (name) => {
    expect(reachable(join(import.meta.dirname, name))).toEqual([]);
  });
});
