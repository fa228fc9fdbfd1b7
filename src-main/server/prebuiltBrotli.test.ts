import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { StaticAssets } from './staticAssets';

// The build writes `<file>.br` beside the files index.html names (electron.vite.config.ts), so
// the browser host does not compress them at start (issue 23, round 4: open).

const script = `export const rows = ${JSON.stringify('a transcript row '.repeat(400))};\n`;
/** Quality 1: different bytes from what the host would make (quality 9), the same once decoded. */
const prebuilt = brotliCompressSync(script, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });

function assets(brAge: 'fresh' | 'stale' | 'none'): string {
  const dir = mkdtempSync(join(tmpdir(), 'acp-prebuilt-'));
  const file = join(dir, 'index-AbCd1234.js');
  writeFileSync(file, script);
  if (brAge === 'none') return file;
  writeFileSync(`${file}.br`, prebuilt);
  const past = new Date(Date.now() - 60_000);
  // A stale .br: older than its file (the file rebuilt, the .br left from before).
  if (brAge === 'stale') utimesSync(`${file}.br`, past, past);
  else utimesSync(file, past, past);
  return file;
}

describe('prebuilt brotli files', () => {
  it('serves the build’s .br as it is when it is not older than its file', async () => {
    const { body } = await new StaticAssets().body(assets('fresh'), 'br');
    expect(body.equals(prebuilt)).toBe(true);
  });

  it('compresses the file itself when the .br is older or absent, the same text once decoded', async () => {
    for (const age of ['stale', 'none'] as const) {
      const { body } = await new StaticAssets().body(assets(age), 'br');
      expect(body.equals(prebuilt)).toBe(false);
      expect(brotliDecompressSync(body).toString()).toBe(script);
    }
  });

  it('gzip and identity are unchanged by a .br', async () => {
    const file = assets('fresh');
    const store = new StaticAssets();
    expect((await store.body(file, 'identity')).body.toString()).toBe(script);
    expect((await store.body(file, 'gzip')).body.equals(prebuilt)).toBe(false);
  });
});
