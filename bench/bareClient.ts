/**
 * The bare-SDK contender of `npm run bench:stream`: an ACP client built on
 * `@agentclientprotocol/sdk` with no-op handlers, which starts the flood agent, sends one prompt
 * and waits for the turn to end. What the wire and the SDK cost, with no app around them.
 */
import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import * as acp from '@agentclientprotocol/sdk';

export interface BareResult {
  ms: number;
  /** CPU time of this process (the client) from sending the prompt to its answer. */
  cpuMs: number;
  chunks: number;
  chars: number;
}

/** Runs `prompt` against a fresh agent process; times from sending the prompt to its answer. */
export async function bareClientRun(agent: { command: string; args: string[] }, prompt: string, cwd: string): Promise<BareResult> {
  const child = spawn(agent.command, agent.args, { stdio: ['pipe', 'pipe', 'inherit'] });
  let chunks = 0;
  let chars = 0;
  const app = acp.client({ name: 'bench-bare' }).onNotification('session/update', ({ params }) => {
    const update = params.update as { sessionUpdate: string; content?: { text?: string } };
    if (update.sessionUpdate === 'agent_message_chunk') {
      chunks++;
      chars += update.content?.text?.length ?? 0;
    }
  });
  const connection = app.connect(
    acp.ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>),
  );
  try {
    await connection.agent.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    const { sessionId } = await connection.agent.request('session/new', { cwd, mcpServers: [] });
    const start = performance.now();
    const cpu = process.cpuUsage();
    await connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: prompt }] });
    const ms = performance.now() - start;
    const used = process.cpuUsage(cpu);
    return { ms, cpuMs: (used.user + used.system) / 1000, chunks, chars };
  } finally {
    connection.close();
    child.kill();
  }
}
