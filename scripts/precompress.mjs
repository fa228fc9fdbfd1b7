// Brotli copies of the built renderer's text files (`<file>.br`, best quality), made once at build
// so the browser host serves them without compressing at start (issue 23, cold start;
// src-main/server/staticAssets.ts serves one only when it is not older than its file).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

/** The same rule as staticAssets.ts: text formats of at least 1 KB. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|wasm|map|txt)$/;
const MIN_BYTES = 1024;

const root = resolve(process.argv[2] ?? 'out/renderer');
let files = 0;
let raw = 0;
let packed = 0;
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (COMPRESSIBLE.test(entry.name) && statSync(path).size >= MIN_BYTES) {
      const body = readFileSync(path);
      const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
      writeFileSync(`${path}.br`, br);
      files++;
      raw += body.length;
      packed += br.length;
    }
  }
};
walk(root);
console.log(`precompressed ${files} files in ${root}: ${(raw / 1024).toFixed(0)} KB → ${(packed / 1024).toFixed(0)} KB (brotli)`);
