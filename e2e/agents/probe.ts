/**
 * Drives one agent headless, without the app, for debugging the suite:
 * `npx tsx e2e/agents/probe.ts <agent-id> [scenario…]`. Speaks raw ACP over stdio (answers
 * fs, terminal and permission requests itself, allowing everything) against the scripted model
 * server and prints every message, so a new agent version can be checked in a minute.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENTS } from './catalog';
import { agentDir } from './install';
import { marker } from './model-server/script';
import { startModelServer } from './model-server/server';

const [id, ...scenarios] = process.argv.slice(2);
const agent = AGENTS.find((a) => a.id === id);
if (!agent) throw new Error(`unknown agent ${id}; one of ${AGENTS.map((a) => a.id).join(', ')}`);
const server = await startModelServer();
const workspace = mkdtempSync(join(tmpdir(), 'acp-probe-ws-'));
const home = join(agentDir(agent), 'home-probe');
mkdirSync(home, { recursive: true });
const env = { ...process.env, ...agent.setup(server.url, home) };
const child = spawn(join(agentDir(agent), 'node_modules/.bin', agent.bin), agent.args, { cwd: workspace, env, stdio: ['pipe', 'pipe', 'pipe'] });
child.stderr.on('data', (d: Buffer) => process.stderr.write(`[stderr] ${d.toString()}`));
let nextId = 1;
const pending = new Map<number, (result: unknown) => void>();
const terminals = new Map<string, { output: string; code: number }>();
const send = (msg: object) => {
  const line = JSON.stringify({ jsonrpc: '2.0', ...msg });
  console.log(`→ ${line.slice(0, 600)}`);
  child.stdin.write(`${line}\n`);
};
const request = (method: string, params: unknown) =>
  new Promise<unknown>((resolve) => {
    const n = nextId++;
    pending.set(n, resolve);
    send({ id: n, method, params });
  });
let buffer = '';
child.stdout.on('data', (chunk: Buffer) => {
  buffer += chunk.toString();
  let i;
  while ((i = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, i);
    buffer = buffer.slice(i + 1);
    if (!line.trim()) continue;
    console.log(`← ${line.slice(0, 1500)}`);
    let msg: { id?: number; method?: string; params?: Record<string, unknown>; result?: unknown; error?: unknown };
    try {
      msg = JSON.parse(line);
    } catch {
      continue;
    }
    if (msg.method && msg.id !== undefined) answer(msg.id, msg.method, msg.params ?? {});
    else if (msg.id !== undefined && pending.has(msg.id)) {
      pending.get(msg.id)!(msg.result ?? { error: msg.error });
      pending.delete(msg.id);
    }
  }
});
function answer(requestId: number, method: string, params: Record<string, unknown>) {
  if (method === 'session/request_permission') {
    const options = params.options as { optionId: string; kind: string }[];
    const option = options.find((o) => o.kind === 'allow_once') ?? options[0];
    return send({ id: requestId, result: { outcome: { outcome: 'selected', optionId: option.optionId } } });
  }
  if (method === 'fs/read_text_file') {
    try {
      return send({ id: requestId, result: { content: readFileSync(String(params.path), 'utf8') } });
    } catch (error) {
      return send({ id: requestId, error: { code: -32002, message: String(error) } });
    }
  }
  if (method === 'fs/write_text_file') {
    writeFileSync(String(params.path), String(params.content));
    return send({ id: requestId, result: {} });
  }
  if (method === 'terminal/create') {
    const args = (params.args as string[] | undefined) ?? [];
    const run = args.length
      ? spawnSync(String(params.command), args, { cwd: String(params.cwd ?? workspace), encoding: 'utf8' })
      : spawnSync('sh', ['-c', String(params.command)], { cwd: String(params.cwd ?? workspace), encoding: 'utf8' });
    const terminalId = `t${requestId}`;
    terminals.set(terminalId, { output: `${run.stdout}${run.stderr}`, code: run.status ?? 1 });
    return send({ id: requestId, result: { terminalId } });
  }
  if (method === 'terminal/output') {
    const t = terminals.get(String(params.terminalId))!;
    return send({ id: requestId, result: { output: t.output, truncated: false, exitStatus: { exitCode: t.code } } });
  }
  if (method === 'terminal/wait_for_exit') return send({ id: requestId, result: { exitCode: terminals.get(String(params.terminalId))!.code } });
  if (method === 'terminal/release' || method === 'terminal/kill') return send({ id: requestId, result: {} });
  send({ id: requestId, error: { code: -32601, message: `probe: no ${method}` } });
}
const init = await request('initialize', {
  protocolVersion: 1,
  clientCapabilities: {
    fs: { readTextFile: true, writeTextFile: true },
    terminal: true,
    ...(process.env.PROBE_META ? { _meta: JSON.parse(process.env.PROBE_META) as object } : {}),
  },
  clientInfo: { name: 'probe', version: '0' },
});
console.log('INIT', JSON.stringify(init).slice(0, 800));
const session = (await request('session/new', { cwd: workspace, mcpServers: [] })) as { sessionId?: string };
console.log('SESSION', JSON.stringify(session).slice(0, 800));
for (const scenario of scenarios.length ? scenarios : ['full', 'second']) {
  const result = await request('session/prompt', {
    sessionId: session.sessionId,
    prompt: [{ type: 'text', text: `Please do the compat run ${marker(scenario as 'full', workspace)}` }],
  });
  console.log('PROMPT', scenario, JSON.stringify(result));
}
try {
  console.log('DISK', JSON.stringify(readFileSync(join(workspace, 'hello.txt'), 'utf8')));
} catch (error) {
  console.log('DISK', String(error));
}
console.log('TOOLS', server.requests.find((r) => r.tools?.length)?.tools?.join(' '));
console.log(
  'MODEL REQUESTS',
  JSON.stringify(server.requests.map((r) => ({ path: r.path, api: r.api, tools: r.tools?.length, step: r.step && Object.keys(r.step) }))),
);
child.kill();
await server.close();
process.exit(0);
