import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createCore } from './core/createCore';
import { defaultDataDir } from './core/dataDir';
import { startBrowserHost } from './server/browserHost';
import { hostToken } from './server/hostToken';

const USAGE = `Usage: acp-desktop serve [--host 127.0.0.1] [--port 0] [--token T] [--data-dir DIR] [--cwd DIR]

Runs the app's core in plain Node and serves its UI to a browser.
  --host      address to bind (default 127.0.0.1; anything else exposes your agents to that network)
  --port      port (default: a free one)
  --token     access token (default: a random one kept in DATA/host-token, printed in the URL)
  --data-dir  data folder (default: $ACP_DESKTOP_DATA_DIR or the desktop app's folder)
  --cwd       folder offered for new sessions (default: the current folder)`;

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command !== 'serve') {
    console.error(command ? `Unknown command "${command}".\n\n${USAGE}` : USAGE);
    process.exit(command === undefined || command === '--help' ? 0 : 2);
  }
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: { host: { type: 'string' }, port: { type: 'string' }, token: { type: 'string' }, 'data-dir': { type: 'string' }, cwd: { type: 'string' } },
      strict: true,
    }) as { values: Record<string, string | undefined> });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  const port = values.port ? Number(values.port) : 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be a number from 0 to 65535, not "${values.port}".`);
    process.exit(2);
  }
  const dataDir = resolve(values['data-dir'] ?? process.env.ACP_DESKTOP_DATA_DIR ?? defaultDataDir());
  const core = createCore({
    dataDir,
    host: 'browser',
    defaultCwd: resolve(values.cwd ?? process.cwd()),
    initializeTimeoutMs: process.env.ACP_DESKTOP_INIT_TIMEOUT_MS ? Number(process.env.ACP_DESKTOP_INIT_TIMEOUT_MS) : undefined,
  });
  const rendererDir = resolve(import.meta.dirname, '../renderer');
  const host = await startBrowserHost({ core, rendererDir, host: values.host, port, token: values.token ?? hostToken(dataDir) });
  console.log(`ACP Desktop is serving at ${host.url}`);
  console.log(`Data folder: ${dataDir}`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    // Agents get a grace period to exit; quitting must not hang on one that ignores SIGTERM.
    setTimeout(() => process.exit(0), 8000).unref();
    await host.close();
    await core.dispose();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main(process.argv.slice(2));
