#!/usr/bin/env node
// Fails on a dead export: a name exported from src-main, src-renderer or src-shared that nothing
// uses, not even its own file (then it is either used for what it claims or removed). A name used
// only inside its file may stay exported (a type that documents a signature). Word matching over
// the sources, tests, e2e, bench and scripts: cheap, and a name mentioned anywhere counts as used.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);
const CHECKED = ['src-main', 'src-renderer', 'src-shared'];
const READ = [...CHECKED, 'e2e', 'bench', 'scripts'];

function files(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.') || name === 'artifacts') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path));
    else if (/\.(ts|tsx|mts|mjs|js)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Exports kept on purpose, each with its reason. */
const ALLOWED = {
  'src-main/acp/dialects/negotiate.ts: sendNotification': 'the version-blind pair of sendRequest, for wiring the dialects into sessions',
};

const sources = new Map(READ.flatMap((dir) => files(join(root, dir))).map((file) => [relative(root, file), readFileSync(file, 'utf8')]));
const EXPORT = /^export (?:declare )?(?:async )?(?:function\*?|const|let|class|abstract class|type|interface|enum) ([A-Za-z_$][\w$]*)/gm;
const dead = [];
for (const [file, text] of sources) {
  if (!CHECKED.some((dir) => file.startsWith(`${dir}/`)) || /\.test\.tsx?$/.test(file)) continue;
  for (const [, name] of text.matchAll(EXPORT)) {
    const pattern = `(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`;
    if ((text.match(new RegExp(pattern, 'g')) ?? []).length > 1) continue;
    const word = new RegExp(pattern);
    if ([...sources].some(([other, otherText]) => other !== file && word.test(otherText))) continue;
    if (ALLOWED[`${file}: ${name}`]) continue;
    dead.push(`${file}: ${name}`);
  }
}
if (dead.length) {
  console.error(`Exported but used nowhere (use it for what it claims, or remove it):\n${dead.map((line) => `  ${line}`).join('\n')}`);
  process.exit(1);
}
console.log(`check-exports: no dead exports in ${CHECKED.join(', ')}`);
