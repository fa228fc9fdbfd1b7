import * as acp1 from '@agentclientprotocol/sdk/unstable';
import * as acp2 from '@agentclientprotocol/sdk/experimental/v2/unstable';
import type { ProtocolSetting } from '../../../src-shared/settings';
import type { MessageTap } from '../rawTap';
import type { ClientIdentity, Dialect } from './dialect';
import { dialectFor } from './index';
import { startNegotiation, stepNegotiation, type NegotiationAction, type NegotiationInput, type Version } from './negotiation';
import type { AgentProfile } from './profile';
import { Switchboard } from './switchboard';
import { logged } from '../../log/mainLog';
import { formatSeconds } from '../formatSeconds';

import type { RawObject } from '../../../src-shared/session/raw';
type JsonRpcId = string | number | null;

/** An agent process's stdio as web streams (what `AgentProcess.webStreams()` gives, plus a stop). */
export interface AgentTransport {
  /** The agent's stdout (none for a remote agent: it has `stream` only). */
  input?: ReadableStream<Uint8Array>;
  /** The agent's stdin. */
  output?: WritableStream<Uint8Array>;
  /** The message stream over `input`/`output` when the caller framed it already (stdout guard, raw tap). */
  stream?: acp1.Stream;
  stop(): Promise<unknown>;
}

/** Either SDK's client connection: both expose `agent.request/notify`, `closed` and `close()`. */
export type SdkClientConnection = acp1.ClientConnection | acp2.ClientConnection;

/** A version-blind request on either SDK connection (method names come from the dialect). */
export function sendRequest(connection: SdkClientConnection, method: string, params: unknown, options?: acp1.SendRequestOptions): Promise<unknown> {
  return (connection.agent.request as (method: string, params: unknown, options?: acp1.SendRequestOptions) => Promise<unknown>)(method, params, options);
}

export function sendNotification(connection: SdkClientConnection, method: string, params: unknown): Promise<void> {
  return (connection.agent.notify as (method: string, params: unknown) => Promise<void>)(method, params);
}

export interface NegotiateOptions {
  setting: ProtocolSetting;
  agent: { name: string; id?: string };
  /** Starts the agent process (called again only to restart it on v1). */
  start(): AgentTransport;
  client: ClientIdentity;
  /** The client capabilities in the v1 shape; the v2 dialect derives its own from them. */
  capabilities: RawObject;
  timeoutMs?: number;
  /** Registers the client's handlers on the SDK app of the version in use. */
  buildClient?: { v1?(app: acp1.ClientApp): acp1.ClientApp; v2?(app: acp2.ClientApp): acp2.ClientApp };
  /** Sees every raw message once negotiated (the session layer's stream boundary). */
  tap?: Partial<MessageTap>;
}

export interface Negotiated {
  version: Version;
  dialect: Dialect;
  profile: AgentProfile;
  /** The `initialize` answer as it came. */
  result: RawObject;
  transport: AgentTransport;
  switchboard: Switchboard;
  connection: SdkClientConnection;
  /** What was tried, in order (`initialize v2`, `initialize v1`, `restart v1`…), for the agent's log. */
  steps: string[];
}

export class NegotiationError extends Error {
  constructor(
    message: string,
    readonly steps: string[],
  ) {
    super(message);
  }
}

/**
 * Starts the agent and settles the protocol version per the setting, driving the pure
 * machine in negotiation.ts with the SDK's v1 and v2 client APIs. The raw `initialize` answer
 * is read at the stream boundary, because the v2 SDK turns a v1 answer into a bare validation
 * error (and closes its connection).
 */
export async function negotiate(options: NegotiateOptions): Promise<Negotiated> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const steps: string[] = [];
  let transport = options.start();
  let board = new Switchboard(transport.stream ?? acp1.ndJsonStream(transport.output!, transport.input!));
  let { state, action } = startNegotiation(options.setting, options.agent);
  for (;;) {
    if (action.type === 'fail') {
      await transport.stop().catch(logged('Stopping the agent after negotiating', 'debug'));
      throw new NegotiationError(action.message, steps);
    }
    if (action.type === 'restart') {
      steps.push(`restart v${action.version}`);
      await transport.stop().catch(logged('Stopping the agent after negotiating', 'debug'));
      transport = options.start();
      board = new Switchboard(transport.stream ?? acp1.ndJsonStream(transport.output!, transport.input!));
    }
    const version = (action as Extract<NegotiationAction, { version: Version }>).version;
    steps.push(`initialize v${version}`);
    const attempt = await initializeOnce(board, version, options, timeoutMs);
    ({ state, action } = stepNegotiation(state, attempt.input));
    if (action.type === 'done') {
      if (attempt.sdkError) {
        await transport.stop().catch(logged('Stopping the agent after negotiating', 'debug'));
        throw new NegotiationError(`${options.agent.name} answered initialize in a shape the ACP SDK rejects: ${attempt.sdkError}`, steps);
      }
      const dialect = dialectFor(action.version);
      board.setTap(options.tap ?? {});
      return {
        version: action.version,
        dialect,
        profile: dialect.decodeInitialize(attempt.result ?? {}),
        result: attempt.result ?? {},
        transport,
        switchboard: board,
        connection: attempt.connection,
        steps,
      };
    }
    attempt.detach();
  }
}

interface Attempt {
  input: NegotiationInput;
  result?: RawObject;
  connection: SdkClientConnection;
  detach(): void;
  /** The SDK refused an answer the raw reading accepted. */
  sdkError?: string;
}

async function initializeOnce(board: Switchboard, version: Version, options: NegotiateOptions, timeoutMs: number): Promise<Attempt> {
  const dialect = dialectFor(version);
  const link = board.attach();
  let initializeId: JsonRpcId | undefined;
  let settle!: (raw: { result?: unknown; error?: RawObject } | 'closed') => void;
  const raw = new Promise<{ result?: unknown; error?: RawObject } | 'closed'>((resolve) => (settle = resolve));
  board.setTap({
    outgoing(message) {
      const m = message as RawObject;
      if (m.method === 'initialize') initializeId = m.id as JsonRpcId;
    },
    incoming(message) {
      const m = message as RawObject;
      if (initializeId !== undefined && m.id === initializeId && !('method' in m)) {
        settle('error' in m ? { error: m.error as RawObject } : { result: m.result });
      }
    },
  });
  const off = board.onEnd(() => settle('closed'));
  const connection: SdkClientConnection =
    version === 2
      ? (options.buildClient?.v2?.(acp2.client({ name: options.client.name })) ?? acp2.client({ name: options.client.name })).connect(link.stream)
      : (options.buildClient?.v1?.(acp1.client({ name: options.client.name })) ?? acp1.client({ name: options.client.name })).connect(link.stream);
  const params = dialect.encodeInitialize(options.client, dialect.clientCapabilities(options.capabilities));
  const request = sendRequest(connection, 'initialize', params);
  const sdk = request.then(
    () => null,
    (error: unknown) => (error as Error)?.message ?? String(error),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
  const answer = await Promise.race([raw, timeout]);
  clearTimeout(timer);
  off();
  const detach = () => {
    link.detach();
    connection.close();
  };
  if (answer === 'timeout') {
    return { input: { type: 'error', message: `The agent did not answer initialize within ${formatSeconds(timeoutMs)}.` }, connection, detach };
  }
  if (answer === 'closed') return { input: { type: 'closed' }, connection, detach };
  if (answer.error) {
    const e = answer.error as { code?: number; message?: string; data?: unknown };
    return { input: { type: 'error', code: e.code, message: e.message, data: e.data }, connection, detach };
  }
  const result = (typeof answer.result === 'object' && answer.result !== null ? answer.result : {}) as RawObject;
  // When the version matches, the SDK must have accepted the answer too (its connection is what we keep).
  const sdkError = result.protocolVersion === version ? ((await sdk) ?? undefined) : undefined;
  return { input: { type: 'answered', protocolVersion: result.protocolVersion }, result, connection, detach, sdkError };
}
