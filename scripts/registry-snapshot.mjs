#!/usr/bin/env node
// Refreshes the registry snapshot bundled with the app (resources/registry/): the offline
// fallback shown when neither the network nor the disk cache has an index.
//
//   npm run registry:snapshot                         # from the live registry (needs internet)
//   npm run registry:snapshot -- --from <folder|url>  # from a registry folder or another index URL
//
// A folder is laid out like the registry's repository and /work/shared/registry-snapshot:
// `registry.json`, `<id>/icon.svg`, `agent.schema.json`, `registry.schema.json`. A URL names
// `registry.json`; icons are fetched from `<base>/<id>.svg`. Nothing is written unless the index
// parses and every entry has an id, a version and a distribution.
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const LIVE = 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json';
const OUT = resolve(import.meta.dirname, '../resources/registry');
const argv = process.argv.slice(2);
const from = argv.includes('--from') ? argv[argv.indexOf('--from') + 1] : LIVE;
if (!from) fail('--from needs a folder or a URL.');

function fail(message) {
  console.error(`registry:snapshot: ${message}`);
  process.exit(1);
}

const isUrl = /^https?:\/\//i.test(from);
const read = async (name) => {
  if (isUrl) {
    const url = new URL(name, from.endsWith('.json') ? from : `${from.replace(/\/?$/, '/')}`);
    const response = await fetch(url);
    if (!response.ok) return null;
    return Buffer.from(await response.arrayBuffer());
  }
  const file = join(from, name);
  return existsSync(file) ? readFileSync(file) : null;
};

const raw = await read(isUrl && from.endsWith('.json') ? from.split('/').pop() : 'registry.json');
if (!raw) fail(`no registry.json at ${from}`);
let index;
try {
  index = JSON.parse(raw.toString('utf8'));
} catch (error) {
  fail(`registry.json does not parse: ${error.message}`);
}
const agents = Array.isArray(index?.agents) ? index.agents : null;
if (!agents?.length) fail('registry.json lists no agents.');
for (const [i, agent] of agents.entries()) {
  if (typeof agent?.id !== 'string' || typeof agent.version !== 'string' || typeof agent.distribution !== 'object')
    fail(`agents[${i}] lacks an id, a version or a distribution.`);
}

mkdirSync(join(OUT, 'icons'), { recursive: true });
writeFileSync(join(OUT, 'registry.json'), raw);
for (const schema of ['agent.schema.json', 'registry.schema.json']) {
  const data = await read(schema);
  if (data) writeFileSync(join(OUT, schema), data);
}
let icons = 0;
for (const agent of agents) {
  const data = (await read(`${agent.id}/icon.svg`)) ?? (await read(`${agent.id}.svg`));
  const target = join(OUT, 'icons', `${agent.id}.svg`);
  if (data) {
    writeFileSync(target, data);
    icons++;
  } else if (existsSync(target)) rmSync(target);
}
// A folder copy keeps the time of the snapshot it was taken from when it says one (`snapshot.json`).
const sourceMeta = isUrl ? null : await read('snapshot.json');
const takenAt = isUrl
  ? new Date().toISOString()
  : (sourceMeta && JSON.parse(sourceMeta.toString('utf8')).takenAt) || statSync(join(from, 'registry.json')).mtime.toISOString();
writeFileSync(
  join(OUT, 'snapshot.json'),
  JSON.stringify(
    {
      takenAt,
      from: isUrl ? from : LIVE,
      note: 'The offline fallback shown when neither the network nor the disk cache has an index. Icons are in icons/<id>.svg. Refresh: npm run registry:snapshot (docs/REGISTRY.md).',
    },
    null,
    2,
  ) + '\n',
);
console.log(
  `registry:snapshot: ${agents.length} agents (${agents.map((a) => `${a.id} ${a.version}`).join(', ')}), ${icons} icons → ${dirname(join(OUT, 'x'))}`,
);
