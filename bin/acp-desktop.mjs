#!/usr/bin/env node
// The CLI entry is built with the app (`npm run build`): out/main/cli.js.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const cli = fileURLToPath(new URL('../out/main/cli.js', import.meta.url));
if (!existsSync(cli)) {
  console.error('acp-desktop: the app is not built yet. Run `npm run build` first.');
  process.exit(1);
}
await import(cli);
