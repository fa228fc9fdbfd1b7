import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { AppCore } from './core/appCore';
import { defaultDataDir } from './core/dataDir';
import { startBrowserHost } from './server/browserHost';
import { hostToken } from './server/hostToken';
import { pageStart } from './store/pageStart';

const USAGE = `Usage: acp-desktop serve [--host 127.0.0.1] [--port 0] [--token T] [--data-dir DIR] [--cwd DIR]

Runs the app's core in plain Node and serves its UI to a browser.
  --host      address to bind (default 127.0.0.1; anything else exposes your agents to that network)
  --port      port (default: a free one)
  --token     access token (default: a random one kept in DATA/host-token, printed in the URL)
  --data-dir  data folder (default: $ACP_DESKTOP_DATA_DIR or the desktop app's folder)
  --cwd       folder offered for new sessions (default: the current folder)`;

const AGENT_SERVER_USAGE = `Usage: acp-desktop agent-server --port P [--host 127.0.0.1] [--token T] -- <agent command> [args…]

Serves a local stdio ACP agent over ACP's Streamable HTTP and WebSocket transport (endpoint /acp),
one agent process per connection (docs/REMOTE.md).
  --host   address to bind (default 127.0.0.1; anything else exposes the agent to that network)
  --port   port (default: a free one)
  --token  the token clients send as "Authorization: Bearer <token>" (default: $ACP_DESKTOP_AGENT_TOKEN,
           else a random one, printed once)`;

async function agentServer(rest: string[]): Promise<void> {
  let values: Record<string, string | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: rest,
      options: { host: { type: 'string' }, port: { type: 'string' }, token: { type: 'string' } },
      strict: true,
      allowPositionals: true,
    }) as { values: Record<string, string | undefined>; positionals: string[] });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${AGENT_SERVER_USAGE}`);
    process.exit(2);
  }
  if (!rest.includes('--') || positionals.length === 0) {
    console.error(`Give the agent's command after "--".\n\n${AGENT_SERVER_USAGE}`);
    process.exit(2);
  }
  const port = values.port ? Number(values.port) : 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be a number from 0 to 65535, not "${values.port}".`);
    process.exit(2);
  }
  const [command, ...args] = positionals;
  const token = values.token ?? process.env.ACP_DESKTOP_AGENT_TOKEN ?? undefined;
  // Only this command needs the ACP SDK's server: `serve` starts without loading it (issue 23).
  const { startAgentServer } = await import('./server/agentServer');
  const server = await startAgentServer({
    agent: { command, args, env: {}, cwd: process.cwd() },
    host: values.host,
    port,
    token,
    events: {
      started: (pid) => console.log(`connection: agent process ${pid} started`),
      exited: (pid, code, signal) => console.log(`connection: agent process ${pid} ended (${signal ?? `code ${code}`})`),
      stderr: (pid, text) => process.stderr.write(text.replace(/^(?=.)/gm, `[agent ${pid}] `)),
      dropped: (pid, bytes) => console.warn(`[agent ${pid}] a message of ${bytes} bytes, over the limit of one message over the network, was dropped`),
    },
  });
  if (server.warning) console.warn(`WARNING: ${server.warning}`);
  console.log(`ACP agent server at ${server.url} (WebSocket: ${server.url.replace(/^http/, 'ws')})`);
  if (!token) console.log(`Token (send as "Authorization: Bearer <token>"): ${server.token}`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(0), 8000).unref();
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === 'agent-server') return agentServer(rest);
  if (command !== 'serve') {
    console.error(command ? `Unknown command "${command}".\n\n${USAGE}\n\n${AGENT_SERVER_USAGE}` : `${USAGE}\n\n${AGENT_SERVER_USAGE}`);
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
  // The core loads once the page's first files are sent (`coreWhenServed.ts`): listening does
  // not wait for the contract's schemas and every service to load.
  let core: AppCore | null = null;
  const loadCore = async (): Promise<AppCore> => {
    try {
      const { createCore } = await import('./core/createCore');
      core = createCore(coreOptions);
      return core;
    } catch (error) {
      // A host without its core could only answer errors: say why and stop, as before it listened.
      console.error(`The app could not start: ${(error as Error)?.stack ?? String(error)}`);
      process.exit(1);
    }
  };
  const coreOptions = {
    dataDir,
    host: 'browser',
    defaultCwd: resolve(values.cwd ?? process.cwd()),
    initializeTimeoutMs: process.env.ACP_DESKTOP_INIT_TIMEOUT_MS ? Number(process.env.ACP_DESKTOP_INIT_TIMEOUT_MS) : undefined,
    // Tests shorten a remote agent's reconnect waits (comma-separated milliseconds).
    remoteBackoffMs: process.env.ACP_DESKTOP_REMOTE_BACKOFF_MS ? process.env.ACP_DESKTOP_REMOTE_BACKOFF_MS.split(',').map(Number) : undefined,
    // The page's first answer (the agent list) before the open tabs' sessions are read back.
    restoreAfterFirstAnswerMs: 1000,
  } as const;
  const rendererDir = resolve(import.meta.dirname, '../renderer');
  const host = await startBrowserHost({
    core: loadCore,
    rendererDir,
    host: values.host,
    port,
    token: values.token ?? hostToken(dataDir),
    pageStart: () => pageStart(dataDir, { defaultCwd: coreOptions.defaultCwd }),
  });
  console.log(`ACP Desktop is serving at ${host.url}`);
  console.log(`Data folder: ${dataDir}`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    // Agents get a grace period to exit; quitting must not hang on one that ignores SIGTERM.
    setTimeout(() => process.exit(0), 8000).unref();
    await host.close();
    await (core as AppCore | null)?.dispose();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main(process.argv.slice(2));
