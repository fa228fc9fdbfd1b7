import * as acp from '@agentclientprotocol/sdk/unstable';
import type * as acp2 from '@agentclientprotocol/sdk/experimental/v2/unstable';
import { UserError } from '../errors/errors';
import type { ClientSide } from './clientSide';
import type { DecodedPermission } from './dialects/dialect';
import type { JsonRpcId, RawBoundary } from './rawBoundary';

import type { RawObject } from '../../src-shared/session/raw';

/** What the client methods need from the connection that serves them. */
export interface ServeContext {
  side: ClientSide;
  boundary: RawBoundary;
  /** The permission request in the app's shape, by the version in use. */
  decodePermission(raw: RawObject, requestId: string): DecodedPermission;
  /** What of this computer is offered (a remote agent: only what the person turned on); default all. */
  offers?: { fs: boolean; terminal: boolean };
}

/** A client method the agent was not offered (a remote agent's fs or terminals, off by default) is refused, not served. */
function refuseUnoffered(context: ServeContext, what: 'fs' | 'terminal', method: string): void {
  if (!context.offers || context.offers[what]) return;
  const thing = what === 'fs' ? 'files' : 'terminals';
  throw new acp.RequestError(
    -32601,
    `${method}: this computer's ${thing} are not offered to this remote agent (turn them on for the agent in its settings to allow it).`,
  );
}

/** Our errors keep their JSON-RPC code (the SDK would turn any other throw into -32603). */
async function guard<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof UserError && error.code !== undefined) throw new acp.RequestError(error.code, error.message, error.data ?? { details: error.message });
    throw error;
  }
}

function permission(context: ServeContext, params: unknown, signal: AbortSignal, requestId: JsonRpcId): Promise<acp.RequestPermissionResponse> {
  const raw = context.boundary.rawParams(requestId, params);
  return guard(() => context.side.requestPermission(raw, signal, (id) => context.decodePermission(raw, id)));
}

function elicitation(context: ServeContext, params: unknown, signal: AbortSignal, requestId: JsonRpcId): Promise<RawObject> {
  return guard(async () => {
    const raw = context.boundary.rawParams(requestId, params);
    return context.side.createElicitation(raw, signal, context.boundary.scopeOf(raw.requestId));
  });
}

/** The client side on the v1 SDK: permission, fs, terminals, elicitation. */
export function serveV1(app: acp.ClientApp, context: ServeContext): acp.ClientApp {
  const { side, boundary } = context;
  /** A handler that reads the SDK's parsed params (fs, terminals: their schemas drop nothing we need). */
  const parsed = <T>(requestId: JsonRpcId, work: () => Promise<T>) => (boundary.markHandled(requestId), guard(work));
  const offered =
    (what: 'fs' | 'terminal') =>
    <T>(method: string, requestId: JsonRpcId, work: () => Promise<T>) =>
      parsed(requestId, async () => (refuseUnoffered(context, what, method), work()));
  const fs = offered('fs');
  const term = offered('terminal');
  return (
    app
      // Never called: both are taken raw at the boundary; registered so the SDK knows them.
      .onNotification('session/update', () => {})
      .onNotification('elicitation/complete', () => {})
      .onRequest('session/request_permission', ({ params, signal, requestId }) => permission(context, params, signal, requestId))
      .onRequest('fs/read_text_file', ({ params, requestId }) => fs('fs/read_text_file', requestId, () => side.readTextFile(params)))
      .onRequest('fs/write_text_file', ({ params, requestId }) => fs('fs/write_text_file', requestId, () => side.writeTextFile(params)))
      .onRequest('terminal/create', ({ params, requestId }) => term('terminal/create', requestId, () => side.createTerminal(params)))
      .onRequest('terminal/output', ({ params, requestId }) => term('terminal/output', requestId, () => side.terminalOutput(params)))
      .onRequest('terminal/wait_for_exit', ({ params, signal, requestId }) =>
        term('terminal/wait_for_exit', requestId, () => side.waitForTerminalExit(params, signal)),
      )
      .onRequest('terminal/kill', ({ params, requestId }) => term('terminal/kill', requestId, () => side.killTerminal(params)))
      .onRequest('terminal/release', ({ params, requestId }) => term('terminal/release', requestId, () => side.releaseTerminal(params)))
      .onRequest(
        'elicitation/create',
        async ({ params, signal, requestId }) => (await elicitation(context, params, signal, requestId)) as unknown as acp.CreateElicitationResponse,
      )
  );
}

/** The client side on the v2 SDK: v2 clients serve no fs or terminal methods (terminals belong to the agent). */
export function serveV2(app: acp2.ClientApp, context: ServeContext): acp2.ClientApp {
  return app
    .onNotification('session/update', () => {})
    .onNotification('elicitation/complete', () => {})
    .onRequest(
      'session/request_permission',
      async ({ params, signal, requestId }) => (await permission(context, params, signal, requestId)) as unknown as acp2.RequestPermissionResponse,
    )
    .onRequest(
      'elicitation/create',
      async ({ params, signal, requestId }) => (await elicitation(context, params, signal, requestId)) as unknown as acp2.CreateElicitationResponse,
    );
}
