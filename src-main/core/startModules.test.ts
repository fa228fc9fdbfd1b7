import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Cold start (issue 23): what a host loads before it can list agents. The ACP SDK (its zod
 * schemas were most of the host's start-up CPU), the installer's archive and version libraries
 * and the icon sanitizer's XML parser are loaded when first used (`import()` or a lazy
 * `require`), never by a static import reachable from a host's entry. This counts modules
 * rather than timing them, so a later static import that brings one back fails here.
 */
const ROOT = resolve(import.meta.dirname, '../..');
// `serve` loads the core after it listens (`coreWhenServed.ts`): its core's load is what lists agents.
const ENTRIES = ['src-main/core/createCore.ts', 'src-main/electron/main.ts'];
const NOT_AT_START = [/^@agentclientprotocol\/sdk(\/|$)/, /^semver$/, /^tar$/, /^yauzl$/, /^sax$/];

function resolveFile(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')];
  return candidates.find((path) => existsSync(path) && statSync(path).isFile()) ?? null;
}

/** The modules a file loads when it is loaded: static imports and re-exports that carry a value. */
function valueImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause;
      // A side-effect import loads; an import whose names are all types is erased by the build.
      const loads =
        !clause ||
        (!clause.isTypeOnly &&
          (Boolean(clause.name) ||
            !clause.namedBindings ||
            ts.isNamespaceImport(clause.namedBindings) ||
            clause.namedBindings.elements.length === 0 ||
            clause.namedBindings.elements.some((element) => !element.isTypeOnly)));
      if (loads) found.push(statement.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
      const named = statement.exportClause;
      const loads = !statement.isTypeOnly && (!named || !ts.isNamedExports(named) || named.elements.some((element) => !element.isTypeOnly));
      if (loads) found.push(statement.moduleSpecifier.text);
    }
  }
  return found;
}

/** Every package a host's entry loads before its first `import()`, with the chain that loads it. */
function packagesAtStart(entry: string): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const seen = new Set<string>();
  const queue: { file: string; chain: string[] }[] = [{ file: join(ROOT, entry), chain: [entry] }];
  while (queue.length) {
    const { file, chain } = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of valueImports(file)) {
      if (!specifier.startsWith('.')) {
        if (!packages.has(specifier)) packages.set(specifier, chain);
        continue;
      }
      const target = resolveFile(file, specifier);
      if (target) queue.push({ file: target, chain: [...chain, relative(ROOT, target)] });
    }
  }
  return packages;
}

describe('what a host loads at start (issue 23, cold start)', () => {
  for (const entry of ENTRIES) {
    it(`${entry} lists agents without loading the ACP SDK, the installer's libraries or the SVG parser`, () => {
      const packages = packagesAtStart(entry);
      // The walk sees the core (it would find nothing if the entry's imports were not read).
      expect([...packages.keys()]).toContain('zod');
      const offending = [...packages].filter(([name]) => NOT_AT_START.some((pattern) => pattern.test(name)));
      expect(offending.map(([name, chain]) => `${name} via ${chain.join(' → ')}`)).toEqual([]);
    });
  }
});

/** Every file an entry loads before its first `import()`. */
function filesAtStart(entry: string): Set<string> {
  const files = new Set<string>();
  const queue = [join(ROOT, entry)];
  while (queue.length) {
    const file = queue.shift()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const specifier of valueImports(file)) {
      const target = specifier.startsWith('.') ? resolveFile(file, specifier) : null;
      if (target) queue.push(target);
    }
  }
  return files;
}

describe('`serve` listens before it loads the core (issue 23, cold start)', () => {
  it('loads neither the core, the contract, zod nor ws before the page can fetch index.html', () => {
    const packages = [...packagesAtStart('src-main/cli.ts').keys()].filter((name) => !name.startsWith('node:'));
    const files = [...filesAtStart('src-main/cli.ts')].map((file) => relative(ROOT, file));
    // The walk reads the host's own files (it would find nothing if the entry's imports were not read).
    expect(files).toContain('src-main/server/browserHost.ts');
    expect(packages).toEqual([]);
    expect(files.filter((file) => /core\/(createCore|dispatch)\.ts$|ipc\/contract\.ts$/.test(file))).toEqual([]);
  });
});
