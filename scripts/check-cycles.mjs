#!/usr/bin/env node
// Fails on any import cycle between files of src-main, src-renderer and src-shared (type-only
// imports count too: a cycle of types is still two files that cannot be read on their own).
// Reads the import graph with TypeScript's own pre-parser (fast, no type checking) and finds the
// strongly connected components (Tarjan); each one is printed with one cycle through it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(new URL('..', import.meta.url).pathname);
const FOLDERS = ['src-main', 'src-renderer', 'src-shared'];
// Folders whose cycles are printed but do not fail lint (none: every cycle fails).
const REPORT_ONLY = [];
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.mjs'];

function sourceFiles(dir) {
  const files = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (/\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

function resolveImport(from, specifier) {
  if (!specifier.startsWith('.')) return null; // packages are not ours
  const base = resolve(dirname(from), specifier);
  const candidates = [base, ...EXTENSIONS.map((ext) => base + ext), ...EXTENSIONS.map((ext) => join(base, `index${ext}`))];
  if (/\.js$/.test(base)) candidates.push(base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'));
  return candidates.find((path) => existsSync(path) && statSync(path).isFile()) ?? null;
}

const files = FOLDERS.flatMap((folder) => sourceFiles(join(root, folder)));
const graph = new Map();
for (const file of files) {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const targets = new Set();
  for (const { fileName } of importedFiles) {
    const target = resolveImport(file, fileName);
    if (target && target !== file) targets.add(target);
  }
  graph.set(file, [...targets]);
}

// Tarjan's strongly connected components (iterative: deep graphs must not blow the stack).
function components() {
  let index = 0;
  const indexes = new Map();
  const lowlinks = new Map();
  const onStack = new Set();
  const stack = [];
  const found = [];
  for (const start of graph.keys()) {
    if (indexes.has(start)) continue;
    const work = [[start, 0]];
    while (work.length) {
      const frame = work[work.length - 1];
      const [node, i] = frame;
      if (i === 0) {
        indexes.set(node, index);
        lowlinks.set(node, index);
        index++;
        stack.push(node);
        onStack.add(node);
      }
      const edges = graph.get(node) ?? [];
      if (i < edges.length) {
        frame[1]++;
        const next = edges[i];
        if (!graph.has(next)) continue;
        if (!indexes.has(next)) work.push([next, 0]);
        else if (onStack.has(next)) lowlinks.set(node, Math.min(lowlinks.get(node), indexes.get(next)));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        lowlinks.set(parent, Math.min(lowlinks.get(parent), lowlinks.get(node)));
      }
      if (lowlinks.get(node) === indexes.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        if (component.length > 1) found.push(component);
      }
    }
  }
  return found;
}

/** One cycle through `start` inside its component (breadth-first: the shortest). */
function cycleThrough(start, members) {
  const inside = new Set(members);
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const node = queue.shift();
    for (const next of graph.get(node) ?? []) {
      if (!inside.has(next)) continue;
      if (next === start) {
        const path = [node];
        for (let at = previous.get(node); at; at = previous.get(at)) path.unshift(at);
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start];
}

const rel = (file) => relative(root, file);
let failing = 0;
let reported = 0;
for (const component of components()) {
  const members = component.map(rel).sort();
  const reportOnly = members.every((file) => REPORT_ONLY.some((folder) => file.startsWith(`${folder}/`)));
  const start = component.find((file) => rel(file) === members[0]);
  const label = reportOnly ? 'import cycle (reported only, see REPORT_ONLY)' : 'import cycle';
  console.error(
    `${label}: ${cycleThrough(start, component).map(rel).join(' → ')}${members.length > 2 ? `\n  (${members.length} files: ${members.join(', ')})` : ''}`,
  );
  if (reportOnly) reported++;
  else failing++;
}
console.log(`cycles: ${files.length} files checked, ${failing} import cycle(s) failing, ${reported} reported only`);
if (failing) process.exit(1);
