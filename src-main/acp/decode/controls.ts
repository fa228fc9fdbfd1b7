import { isObject, num, obj, objects, str, type Raw } from '../../../src-shared/acp/read';
import { KNOWN_CONFIG_OPTION_TYPES, KNOWN_ELICITATION_MODES, isKnown } from '../../../src-shared/acp/known';
import { parseSchema } from '../../../src-shared/acp/elicitation';
import { parseUrl } from '../../../src-shared/acp/url';
import type { Json } from '../../../src-shared/session/raw';
import type {
  AgentCapabilities,
  AgentCommand,
  AgentInfo,
  AuthMethodInfo,
  AuthVar,
  BackgroundWork,
  ConfigOption,
  ContextUsage,
  ElicitationRequest,
  JsonObject,
  PermissionSubject,
  SelectGroup,
  SelectValue,
  SessionModels,
  SessionModes,
  TurnUsage,
  WireError,
} from '../../../src-shared/session/controls';

/*
 * Wire JSON → the app's typed controls (`src-shared/session/controls.ts`). Every decoder reads
 * any value without throwing (a wrong type reads as absent) and is idempotent: decoding what it
 * made gives an equal value, so the old-log converter (`legacyEvents.ts`) runs them over every
 * event, whether its values were written raw (older releases) or decoded (this one). Both
 * versions' spellings are read (v2's `configId`, `groupId`, `methodId`, tagged commands).
 */

const optional = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } => (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };

/** A capability marker: `{}` or `true` is present; absent, `null` and `false` are not. */
const present = (value: unknown) => value !== undefined && value !== null && value !== false;

/** The raw value of something decoded as unknown, or the value itself when it came off the wire. */
const rawOf = (value: Raw): unknown => (value.type === 'unknown' && 'raw' in value ? value.raw : value);

/** A value as JSON (functions, `undefined` and cycles cannot come off the wire; anything else is kept). */
const json = (value: unknown): Json => value as Json;

// ---- config options

function selectValue(raw: Raw): SelectValue {
  const value = String(raw.value ?? '');
  return { value, name: str(raw.name) ?? value, ...optional('description', str(raw.description)) };
}

export function decodeConfigOption(value: unknown): ConfigOption {
  const raw = obj(value);
  if (raw.type === 'unknown' && 'raw' in raw) return decodeConfigOption(raw.raw);
  const id = String(raw.id ?? raw.configId ?? '');
  const base = { id, name: str(raw.name) ?? id, ...optional('description', str(raw.description)), ...optional('category', str(raw.category)) };
  const type = str(raw.type) ?? '';
  if (!isKnown(KNOWN_CONFIG_OPTION_TYPES, type)) return { ...base, type: 'unknown', typeName: type || '(no type)', raw: value };
  if (type === 'boolean') return { ...base, type, currentValue: raw.currentValue === true };
  const options = objects(raw.options).map((item): SelectValue | SelectGroup => {
    if (!Array.isArray(item.options)) return selectValue(item);
    const group = String(item.group ?? item.groupId ?? '');
    return { group, name: str(item.name) ?? group, options: objects(item.options).map(selectValue) };
  });
  return { ...base, type, currentValue: String(raw.currentValue ?? ''), options };
}

export const decodeConfigOptions = (value: unknown): ConfigOption[] => objects(value).map(decodeConfigOption);

// ---- modes, models, commands

export function decodeModes(value: unknown): SessionModes | null {
  if (!isObject(value)) return null;
  return {
    currentModeId: str(value.currentModeId) || null,
    availableModes: objects(value.availableModes).map((mode) => {
      const id = String(mode.id ?? '');
      return { id, name: str(mode.name) ?? id, ...optional('description', str(mode.description)) };
    }),
  };
}

export function decodeModels(value: unknown): SessionModels | null {
  if (!isObject(value)) return null;
  return {
    currentModelId: str(value.currentModelId) || null,
    availableModels: objects(value.availableModels).map((model) => {
      const modelId = String(model.modelId ?? '');
      return { modelId, name: str(model.name) ?? modelId, ...optional('description', str(model.description)) };
    }),
  };
}

/** v2 tags commands (`type: "command"`) and their input (`type: "text"`); v1 has the same shapes untagged. */
export function decodeCommand(value: unknown): AgentCommand {
  const raw = obj(value);
  const known = raw.type === 'command' || (raw.type === undefined && !('raw' in raw));
  const input = obj(raw.input);
  const hint = str(raw.hint) ?? (input.type === undefined || input.type === 'text' ? str(input.hint) : undefined);
  return {
    name: String(raw.name ?? ''),
    ...optional('description', str(raw.description)),
    ...optional('hint', hint),
    ...(known ? {} : { raw: 'raw' in raw ? raw.raw : value }),
  };
}

export const decodeCommands = (value: unknown): AgentCommand[] => objects(value).map(decodeCommand);

// ---- the agent

export function decodeAgentInfo(value: unknown): AgentInfo | null {
  if (!isObject(value)) return null;
  return { ...optional('name', str(value.name)), ...optional('title', str(value.title)), ...optional('version', str(value.version)) };
}

/** ACP v1's `agentCapabilities` (v2's are put in that shape by its dialect); null or absent: nothing advertised. */
export function decodeCapabilities(value: unknown): AgentCapabilities {
  const raw = obj(value);
  const prompt = obj(raw.promptCapabilities);
  const mcp = obj(raw.mcpCapabilities);
  const session = raw.sessionCapabilities;
  return {
    loadSession: raw.loadSession === true,
    promptCapabilities: { image: prompt.image === true, audio: prompt.audio === true, embeddedContext: prompt.embeddedContext === true },
    mcpCapabilities: { http: mcp.http === true, sse: mcp.sse === true },
    sessionCapabilities: Array.isArray(session)
      ? session.filter((name): name is string => typeof name === 'string')
      : Object.entries(obj(session))
          .filter(([, marker]) => present(marker))
          .map(([name]) => name),
    auth: { logout: present(obj(raw.auth).logout) },
  };
}

/** Capabilities when the agent sent some; null when it has not run (nothing is known). */
export const decodeCapabilitiesOrNull = (value: unknown): AgentCapabilities | null => (isObject(value) ? decodeCapabilities(value) : null);

/** The `_meta` of an `initialize` answer (extension data, shown as JSON); null when absent or not an object. */
export const decodeInitializeMeta = (value: unknown): JsonObject | null => (isObject(value) ? (json(value) as JsonObject) : null);

// ---- usage

export function decodeContextUsage(value: unknown): ContextUsage {
  const raw = obj(value);
  const cost = obj(raw.cost);
  const amount = num(cost.amount);
  const currency = str(cost.currency);
  return { ...optional('used', num(raw.used)), ...optional('size', num(raw.size)), cost: amount !== undefined && currency ? { amount, currency } : null };
}

const TOKEN_FIELDS = ['inputTokens', 'outputTokens', 'thoughtTokens', 'cachedReadTokens', 'cachedWriteTokens'] as const;

/** The usage of one turn; null when the agent reported none (or no total the app can read). */
export function decodeTurnUsage(value: unknown): TurnUsage | null {
  if (!isObject(value)) return null;
  const parts: Partial<TurnUsage> = {};
  for (const field of TOKEN_FIELDS) {
    const n = num(value[field]);
    if (n !== undefined) parts[field] = n;
  }
  // The total is required by the RFD; an agent that sends only the parts still gets a total.
  const total =
    num(value.totalTokens) ??
    (parts.inputTokens !== undefined || parts.outputTokens !== undefined ? (parts.inputTokens ?? 0) + (parts.outputTokens ?? 0) : undefined);
  return total === undefined ? null : { totalTokens: total, ...parts };
}

export function decodeBackgroundWork(value: unknown): BackgroundWork {
  const raw = obj(value);
  if (raw.type === 'tool_call' && typeof raw.toolCallId === 'string') return { type: 'tool_call', toolCallId: raw.toolCallId };
  if (raw.type === 'terminal' && typeof raw.terminalId === 'string') return { type: 'terminal', terminalId: raw.terminalId };
  const sent = rawOf(raw);
  return { type: 'unknown', typeName: String(obj(sent).type ?? '(no type)'), raw: sent };
}

/** A background list as reported; null when none was (absent or not a list). */
export const decodeBackground = (value: unknown): BackgroundWork[] | null => (Array.isArray(value) ? objects(value).map(decodeBackgroundWork) : null);

// ---- questions

export function decodeElicitationRequest(value: unknown): ElicitationRequest {
  const raw = obj(value);
  if (raw.mode === 'unknown' && 'raw' in raw) return decodeElicitationRequest(raw.raw);
  const mode = str(raw.mode) ?? 'form';
  const message = str(raw.message) ?? null;
  const requestId = typeof raw.requestId === 'number' ? raw.requestId : str(raw.requestId);
  const scope = { ...optional('sessionId', str(raw.sessionId)), ...optional('toolCallId', str(raw.toolCallId)), ...optional('requestId', requestId) };
  if (!isKnown(KNOWN_ELICITATION_MODES, mode)) return { ...scope, mode: 'unknown', modeName: mode, message, raw: value };
  if (mode === 'url') return { ...scope, mode, message, url: str(raw.url) ?? null, elicitationId: str(raw.elicitationId) ?? null };
  const requestedSchema = isObject(raw.requestedSchema) ? (json(raw.requestedSchema) as JsonObject) : null;
  return { ...scope, mode, message, requestedSchema, fields: parseSchema(requestedSchema) };
}

/** A form answer's content (an object of JSON values); anything else is no content. */
export const decodeElicitationContent = (value: unknown): JsonObject | undefined => (isObject(value) ? (json(value) as JsonObject) : undefined);

// ---- permission subjects

export function decodePermissionSubject(value: unknown): PermissionSubject | null {
  if (!isObject(value)) return null;
  if (value.type === 'tool_call') {
    const toolCallId = str(value.toolCallId) ?? str(obj(value.toolCall).toolCallId) ?? null;
    return { type: 'tool_call', toolCallId };
  }
  if (value.type === 'command' && typeof value.command === 'string') {
    return { type: 'command', command: value.command, ...optional('cwd', str(value.cwd)), ...optional('toolCallId', str(value.toolCallId)) };
  }
  const sent = rawOf(value);
  return { type: 'unknown', typeName: String(obj(sent).type ?? '(no type)'), raw: sent };
}

// ---- sign-in methods

function authVars(raw: Raw): AuthVar[] {
  return objects(raw.vars)
    .filter((v) => typeof v.name === 'string')
    .map((v) => ({ name: String(v.name), label: str(v.label) || String(v.name), secret: v.secret !== false, optional: v.optional === true }));
}

/** A method's `link` when it is an http(s) URL (anything else is not offered as a link). */
function authLink(raw: Raw): string | null {
  const link = str(raw.link);
  const url = link ? parseUrl(link) : null;
  return url && (url.protocol === 'https:' || url.protocol === 'http:') ? url.href : null;
}

/** v1 lists a terminal method's environment as an object, v2 as `[{ name, value }]` pairs. */
function authEnv(env: unknown): { [name: string]: string } {
  const pairs = Array.isArray(env)
    ? objects(env).map((pair) => [pair.name, pair.value] as const)
    : Object.entries(obj(env)).map(([name, value]) => [name, value] as const);
  return Object.fromEntries(pairs.filter((pair): pair is [string, string] => typeof pair[0] === 'string' && typeof pair[1] === 'string'));
}

/**
 * A sign-in method. v1 names it `id`, v2 `methodId`; a method without `type` is `agent` unless
 * `type` says otherwise (the agents layer reads `_meta` hints first). A decoded method is read
 * again from its `raw` with the type it was given.
 */
export function decodeAuthMethod(value: unknown, type?: string): AuthMethodInfo {
  const given = obj(value);
  const decoded = 'raw' in given && isObject(given.raw) && typeof given.type === 'string';
  const raw = decoded ? obj(given.raw) : given;
  const kind = type ?? (decoded ? String(given.type) : (str(raw.type) ?? 'agent'));
  const id = str(raw.methodId) ?? String(raw.id ?? '');
  return {
    id,
    name: str(raw.name) ?? id,
    description: str(raw.description) ?? null,
    type: kind,
    ...(kind === 'env_var' ? { vars: authVars(raw), link: authLink(raw) } : {}),
    ...(kind === 'terminal' ? { args: Array.isArray(raw.args) ? raw.args.map(String) : [], env: authEnv(raw.env) } : {}),
    raw: decoded ? given.raw : value,
  };
}

// ---- tool calls

/** The client-initiated controls a tool call supports now (v2 `capabilities`); null: none. */
export const decodeToolCapabilities = (value: unknown): { cancel: boolean } | null => (isObject(value) ? { cancel: present(value.cancel) } : null);

// ---- errors

export function decodeWireError(value: unknown): WireError {
  const raw = obj(value);
  return { ...optional('code', num(raw.code)), message: str(raw.message) ?? 'invalid', ...('data' in raw ? { data: raw.data } : {}) };
}

// ---- whole events

const has = (event: Raw, key: string) => key in event && event[key] !== undefined;

/**
 * An event with its control values decoded: what older releases wrote raw (wire JSON) is typed,
 * what this one wrote is unchanged (the decoders are idempotent). Run on every event read from a log.
 */
export function decodeEventControls(event: Raw): Raw {
  const next: Raw = { ...event };
  switch (event.kind) {
    case 'session.connected':
      if (Array.isArray(event.configOptions)) next.configOptions = decodeConfigOptions(event.configOptions);
      if (has(event, 'modes')) next.modes = decodeModes(event.modes);
      if (has(event, 'models')) next.models = decodeModels(event.models);
      if (has(event, 'capabilities')) next.capabilities = decodeCapabilitiesOrNull(event.capabilities);
      if (has(event, 'agentInfo')) next.agentInfo = decodeAgentInfo(event.agentInfo);
      return next;
    case 'config.options':
      next.configOptions = decodeConfigOptions(event.configOptions);
      return next;
    case 'commands.updated':
      next.commands = decodeCommands(event.commands);
      return next;
    case 'usage.updated': {
      const { used: _used, size: _size, cost: _cost, ...rest } = event;
      return { ...rest, ...decodeContextUsage(event) };
    }
    case 'turn.ended':
      if (has(event, 'usage')) next.usage = decodeTurnUsage(event.usage);
      return next;
    case 'session.state':
      if (has(event, 'background')) next.background = decodeBackground(event.background);
      if (has(event, 'usage')) next.usage = decodeTurnUsage(event.usage);
      return next;
    case 'elicitation.requested':
      next.request = decodeElicitationRequest(event.request);
      return next;
    case 'elicitation.resolved':
      if (has(event, 'content')) next.content = decodeElicitationContent(event.content);
      return next;
    case 'permission.requested':
      if (has(event, 'subject')) next.subject = decodePermissionSubject(event.subject);
      if (isObject(event.tool) && has(event.tool, 'capabilities')) next.tool = { ...event.tool, capabilities: decodeToolCapabilities(event.tool.capabilities) };
      return next;
    case 'tool.updated':
      if (isObject(event.fields) && has(event.fields, 'capabilities'))
        next.fields = { ...event.fields, capabilities: decodeToolCapabilities(event.fields.capabilities) };
      return next;
    case 'acp.rejected':
      next.error = decodeWireError(event.error);
      return next;
    case 'auth.required':
      next.methods = objects(event.methods).map((method) => decodeAuthMethod(method));
      return next;
    default:
      return event;
  }
}
