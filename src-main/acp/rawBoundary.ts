import { AcpErrorCode } from '../errors/errors';

import { isObject } from '../../src-shared/acp/read';
import type { RawObject } from '../../src-shared/session/raw';
export type JsonRpcId = string | number | null;

/*
 * Where SDK 2.4.0 (`@agentclientprotocol/sdk/unstable`, client side) drops or rejects values
 * that ACP's forward-compatibility rule says must be preserved. Each line is asserted by
 * `sdkBoundary.test.ts` against the SDK itself, so an SDK upgrade that changes it fails there.
 *
 * Notifications (`session/update`), validated before any handler runs:
 *   - unknown `sessionUpdate` kind (future or `_`-prefixed): the whole notification is dropped,
 *     only `console.error("Error handling notification", -32602)` remains;
 *   - a message chunk whose content block `type` is unknown: the whole notification is dropped;
 *   - `user_message_chunk` with a `resource` lacking `text`/`blob`: dropped whole;
 *   - `tool_call` / `tool_call_update` with an unknown `kind` or `status` (also `_`-prefixed):
 *     the field is removed (arrives as `undefined`); unknown tool-call content items are removed
 *     from `content`; unknown fields of `locations` are stripped;
 *   - `plan`: entries with an unknown `priority` or `status` are removed from the list;
 *   - `config_option_update`: options with an unknown `type` are removed (unknown `category`
 *     values and `_meta` survive);
 *   - `available_commands_update`: an unknown `input` shape is removed from the command.
 * Requests from the agent:
 *   - `session/request_permission` with an option `kind` the schema does not list (future or
 *     `_`-prefixed): the SDK answers -32602 itself and our handler never runs; the tool call's
 *     unknown `kind`/`status` and unknown content items are stripped from `params`;
 *   - `terminal/create` etc. with out-of-range values: -32602 from the SDK (legitimate);
 *   - unknown methods, `_`-prefixed or not: -32601 from the SDK (what the spec asks);
 *   - `elicitation/create` with an unknown `mode` or property `type`: passed through unchanged.
 * Unknown notifications (`_x` or not) are ignored silently. Responses to our own requests are
 * NOT validated: `initialize` (unknown auth method types such as `env_var`), `session/prompt`
 * (future stop reasons) and the rest arrive raw.
 *
 * What this file does about it: every incoming message passes `RawBoundary.incoming` (the raw tap) before
 * the SDK. `session/update` and `elicitation/complete` are taken raw there and never given to
 * the SDK at all (nothing to drop, and ten thousand chunks are not zod-parsed twice). Requests
 * keep their raw params by JSON-RPC id and handlers read those; a permission request with an
 * unknown option kind is forwarded to the SDK with that kind replaced by a placeholder so its
 * validator lets it through (the person still sees, and answers, the raw options). Any request
 * the SDK still answers with an error before our handler ran is reported through
 * `ClientSide.onRejectedRequest` with its raw params, so it is kept in the session's events.
 */

/** Permission option kinds of ACP v1; anything else is replaced before the SDK validates it. */
const PERMISSION_OPTION_KINDS = new Set(['allow_once', 'allow_always', 'reject_once', 'reject_always']);

/**
 * What `incoming` returns for a notification taken raw: the stream drops it (ndJsonMessages),
 * so the SDK never reads it; a stream that passes it on gives the SDK an unknown notification,
 * which it ignores.
 */
export const TAKEN_RAW = { jsonrpc: '2.0', method: '_acp-desktop/taken-raw', params: {} };

// The one object test (src-shared/acp/read.ts), offered here to the files of the wire edge.
export { isObject };

/** What the boundary hands on: notifications taken raw, and requests the SDK refused before a handler ran. */
export interface BoundaryListener {
  sessionUpdate(acpSessionId: string, update: RawObject, params: RawObject): void;
  elicitationComplete(params: RawObject): void;
  rejectedRequest(method: string, raw: RawObject, error: RawObject): void;
}

/**
 * The bookkeeping at the stream boundary, both directions of one connection: raw params of the
 * agent's requests (handlers read those, not the SDK's parsed copy), raw results of our requests
 * (fields the SDK's types would drop), and which app session each of our requests is for.
 */
export class RawBoundary {
  /** Raw results of responses by our JSON-RPC id, for fields the SDK would drop (future stop reasons). */
  private rawResults = new Map<JsonRpcId, unknown>();
  /** Our requests in flight: method and params (for request-scoped elicitations). */
  private outgoing = new Map<JsonRpcId, { method: string; params: RawObject }>();
  /** The app session a request was sent for, by its params object. */
  private owners = new WeakMap<object, string>();
  /** The agent's requests in flight, by its JSON-RPC id: raw params, and whether a handler ran. */
  private incomingRequests = new Map<JsonRpcId, { method: string; raw: RawObject; handled: boolean }>();

  constructor(private readonly listener: BoundaryListener) {}

  /** A message from the agent, before the SDK: returns a replacement for the SDK, or nothing to pass it as is. */
  incoming(message: RawObject): RawObject | void {
    const method = typeof message.method === 'string' ? message.method : undefined;
    const params = isObject(message.params) ? message.params : undefined;
    const hasId = message.id !== undefined && message.id !== null;
    if (method && !hasId) {
      // Taken raw here and never handed to the SDK (see the note at the top of this file).
      if (method === 'session/update' && params) {
        if (typeof params.sessionId === 'string' && isObject(params.update)) this.listener.sessionUpdate(params.sessionId, params.update, params);
        return TAKEN_RAW;
      }
      if (method === 'elicitation/complete' && params) {
        this.listener.elicitationComplete(params);
        return TAKEN_RAW;
      }
      return;
    }
    if (method && hasId) {
      const raw = params ?? {};
      this.incomingRequests.set(message.id as JsonRpcId, { method, raw, handled: false });
      if (method === 'session/request_permission' && Array.isArray(raw.options)) {
        const unknown = raw.options.some((option) => isObject(option) && !PERMISSION_OPTION_KINDS.has(String(option.kind)));
        if (unknown) {
          // The SDK would answer -32602 for the whole request: give it a copy it accepts.
          const options = raw.options.map((option) =>
            isObject(option) && !PERMISSION_OPTION_KINDS.has(String(option.kind)) ? { ...option, kind: 'reject_once' } : option,
          );
          return { ...message, params: { ...raw, options } };
        }
      }
      return;
    }
    if (!method && hasId && ('result' in message || 'error' in message)) {
      const id = message.id as JsonRpcId;
      // Kept until the caller has read it; `forget` removes both.
      if ('result' in message && this.outgoing.has(id)) this.rawResults.set(id, message.result);
    }
  }

  /** A message to the agent, as the SDK writes it. */
  outgoingMessage(message: RawObject): void {
    const hasId = message.id !== undefined && message.id !== null;
    if (typeof message.method === 'string' && hasId) {
      this.outgoing.set(message.id as JsonRpcId, { method: message.method, params: isObject(message.params) ? message.params : {} });
      return;
    }
    if (!('method' in message) && hasId) {
      // Our answer to one of the agent's requests.
      const id = message.id as JsonRpcId;
      const entry = this.incomingRequests.get(id);
      this.incomingRequests.delete(id);
      // Unknown methods (-32601) are answered and otherwise ignored, as the spec says; a method
      // we serve that the SDK refused is kept, because the agent's request would be lost.
      if (entry && !entry.handled && isObject(message.error) && message.error.code !== AcpErrorCode.methodNotFound) {
        this.listener.rejectedRequest(entry.method, entry.raw, message.error);
      }
    }
  }

  /** The raw params of the agent's request `requestId` (falls back to the SDK's parsed ones); marks it handled. */
  rawParams(requestId: JsonRpcId, parsed: unknown): RawObject {
    this.markHandled(requestId);
    return this.incomingRequests.get(requestId)?.raw ?? (parsed as RawObject);
  }

  markHandled(requestId: JsonRpcId): void {
    const entry = this.incomingRequests.get(requestId);
    if (entry) entry.handled = true;
  }

  /** Remembers which app session a request (by its params object) is sent for. */
  setOwner(params: RawObject, owner: string): void {
    this.owners.set(params, owner);
  }

  /** For a request-scoped elicitation: the ACP session and the app session of our request it names. */
  scopeOf(requestId: unknown): { requestSessionId?: string; owner?: string } {
    const scope: { requestSessionId?: string; owner?: string } = {};
    if (requestId === undefined || requestId === null) return scope;
    const target = this.outgoing.get(requestId as JsonRpcId);
    if (target && typeof target.params.sessionId === 'string') scope.requestSessionId = target.params.sessionId;
    if (target) scope.owner = this.owners.get(target.params);
    return scope;
  }

  /** Our JSON-RPC id of the request sent with this params object (the SDK sends it as is). */
  idOf(params: RawObject): JsonRpcId | undefined {
    for (const [id, entry] of this.outgoing) if (entry.params === params) return id;
    return undefined;
  }

  /** The raw result of our request `id`, if it came. */
  rawResult(id: JsonRpcId): { value: unknown } | null {
    return this.rawResults.has(id) ? { value: this.rawResults.get(id) } : null;
  }

  forget(id: JsonRpcId): void {
    this.rawResults.delete(id);
    this.outgoing.delete(id);
  }

  /** Requests sent outside `request` (the negotiation's own) are never read back. */
  clearOutgoing(): void {
    this.outgoing.clear();
    this.rawResults.clear();
  }
}
