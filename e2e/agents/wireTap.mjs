#!/usr/bin/env node
// Runs an agent and records its ACP traffic: `node wireTap.mjs <log.jsonl> <command> [args…]`.
// Every newline-delimited JSON-RPC message in either direction is appended to the log as
// `{"dir":"client→agent"|"agent→client","t":<ms>,"msg":…}`; stderr passes through untouched.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';

const [log, command, ...args] = process.argv.slice(2);
const started = Date.now();
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });

function tap(dir) {
  let buffer = '';
  return (chunk) => {
    buffer += chunk.toString('utf8');
    let newline;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (!line.trim()) continue;
      let msg;
      try {
        msg = JSON.parse(line);
      } catch {
        msg = { unparsed: line };
      }
      appendFileSync(log, `${JSON.stringify({ dir, t: Date.now() - started, msg })}\n`);
    }
  };
}

const toAgent = tap('client→agent');
const toClient = tap('agent→client');
process.stdin.on('data', (chunk) => {
  toAgent(chunk);
  child.stdin.write(chunk);
});
process.stdin.on('end', () => child.stdin.end());
child.stdout.on('data', (chunk) => {
  toClient(chunk);
  process.stdout.write(chunk);
});
child.on('exit', (code, signal) => {
  appendFileSync(log, `${JSON.stringify({ dir: 'exit', t: Date.now() - started, code, signal })}\n`);
  process.exit(code ?? 1);
});
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.stdin.on('error', () => {});
