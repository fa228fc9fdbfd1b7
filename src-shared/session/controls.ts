import type { Field } from '../acp/elicitation';
import type { Json } from './raw';

/**
 * A session's controls and metadata in the app's own terms, whatever ACP version sent them:
 * config options, modes, models, slash commands, the agent's capabilities and info, usage,
 * background work, questions (elicitations), permission subjects and sign-in methods. The
 * decoders (`src-main/acp/decode/controls.ts`) turn wire JSON into these at the edge and are
 * idempotent, so a log written before (raw values) and one written now fold alike. A value this
 * app does not know (a future or `_` type) keeps what was sent in a `raw` field beside it.
 */

/** A JSON object (a form's schema, an answer's content). */
export type JsonObject = { [key: string]: Json };

// ---- config options (protocol-v1-session-config-options, rfds-boolean-config-option)

export interface SelectValue {
  value: string;
  name: string;
  description?: string;
}
export interface SelectGroup {
  group: string;
  name: string;
  options: SelectValue[];
}
interface ConfigOptionBase {
  id: string;
  name: string;
  description?: string;
  /** `mode`, `model`, `model_config`, `thought_level`, or another (future, `_` extension) category. */
  category?: string;
}
/** A session config option; `unknown`: a type this app cannot show as a control (kept, listed generically). */
export type ConfigOption =
  | (ConfigOptionBase & { type: 'select'; currentValue: string; options: (SelectValue | SelectGroup)[] })
  | (ConfigOptionBase & { type: 'boolean'; currentValue: boolean })
  | (ConfigOptionBase & { type: 'unknown'; typeName: string; raw: unknown });

// ---- legacy modes and models (ACP v1 `session/new` answer)

export interface SessionMode {
  id: string;
  name: string;
  description?: string;
}
export interface SessionModes {
  currentModeId: string | null;
  availableModes: SessionMode[];
}
export interface SessionModel {
  modelId: string;
  name: string;
  description?: string;
}
export interface SessionModels {
  currentModelId: string | null;
  availableModels: SessionModel[];
}

// ---- slash commands

/** A slash command the agent offers; `raw`: a command of a type this app does not know, as sent. */
export interface AgentCommand {
  name: string;
  description?: string;
  /** What to type after the command (its unstructured input's hint). */
  hint?: string;
  raw?: unknown;
}

// ---- the agent (`initialize`)

export interface AgentInfo {
  name?: string;
  title?: string;
  version?: string;
}

/** What the agent advertised at `initialize`, in ACP v1's names whatever version it speaks. */
export interface AgentCapabilities {
  loadSession: boolean;
  promptCapabilities: { image: boolean; audio: boolean; embeddedContext: boolean };
  mcpCapabilities: { http: boolean; sse: boolean };
  /** The session capabilities advertised, by name (list, fork, resume, close, …; future and `_` ones included). */
  sessionCapabilities: string[];
  /** `auth.logout` advertised (rfds-logout). */
  auth: { logout: boolean };
}

// ---- usage

/** The context window and cost as last reported (`usage_update`); a cost counts only with an amount and a currency. */
export interface ContextUsage {
  used?: number;
  size?: number;
  cost: { amount: number; currency: string } | null;
}

/** The token usage an agent reports when a turn ends (rfds-end-turn-token-usage). */
export interface TurnUsage {
  totalTokens: number;
  inputTokens?: number;
  outputTokens?: number;
  thoughtTokens?: number;
  cachedReadTokens?: number;
  cachedWriteTokens?: number;
}

/** Work running outside the foreground turn (ACP v2 `state_update.background`). */
export type BackgroundWork =
  { type: 'tool_call'; toolCallId: string } | { type: 'terminal'; terminalId: string } | { type: 'unknown'; typeName: string; raw: unknown };

// ---- questions (rfds-elicitation)

/** Where a question belongs (rfds-elicitation): a session (maybe one of its tool calls), or a request outside one. */
export interface ElicitationScope {
  sessionId?: string;
  toolCallId?: string;
  requestId?: string | number;
}

/** An `elicitation/create` request: a form (its restricted JSON Schema kept for validation), a URL, or a mode this app does not know. */
export type ElicitationRequest = ElicitationScope &
  (
    | { mode: 'form'; message: string | null; requestedSchema: JsonObject | null; fields: Field[] }
    | { mode: 'url'; message: string | null; url: string | null; elicitationId: string | null }
    | { mode: 'unknown'; modeName: string; message: string | null; raw: unknown }
  );

/** A form answer's values, by field key. */
export type ElicitationContent = JsonObject;

// ---- permission subjects (ACP v2)

/** What a permission request approves: a tool call, a command, or a future / `_` subject as sent. */
export type PermissionSubject =
  | { type: 'tool_call'; toolCallId: string | null }
  | { type: 'command'; command: string; cwd?: string; toolCallId?: string }
  | { type: 'unknown'; typeName: string; raw: unknown };

// ---- sign-in methods (protocol-v1-authentication, rfds-auth-methods)

/** An `env_var` method's variable: the name, what to call it, whether it is secret or optional. */
export interface AuthVar {
  name: string;
  label: string;
  secret: boolean;
  optional: boolean;
}

/** A sign-in method. `type`: `agent` (default), `env_var`, `terminal`, or an unknown future type (shown from `raw`). */
export interface AuthMethodInfo {
  id: string;
  name: string;
  description?: string | null;
  type: string;
  /** `env_var`: the values it asks for. */
  vars?: AuthVar[];
  /** An http(s) page where the values are explained or issued. */
  link?: string | null;
  /** `terminal`: what to add to the agent's own command line and environment. */
  args?: string[];
  env?: { [name: string]: string };
  /** The method as sent (after the app's reading of `_meta` hints). */
  raw: unknown;
}

/** An ACP error as the app answered or received it. */
export interface WireError {
  code?: number;
  message: string;
  data?: unknown;
}
