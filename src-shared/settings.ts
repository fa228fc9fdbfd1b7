import { z } from 'zod';
import { isJsonObject, parseJson, type Json, type JsonObject } from './json';

/**
 * `settings.json` in the data folder. Unknown keys are kept (a newer app version may have
 * written them); a malformed file is reported with the offending path and never stops the app.
 */
const env = z.record(z.string(), z.string());

/**
 * Which ACP protocol version to speak with an agent: `v1`, `v2`, or `auto` (offer 2, fall back
 * to 1 when the agent only speaks 1). `v1` while v2 is a draft the SDK may change in any release.
 */
export const PROTOCOL_SETTINGS = ['v1', 'auto', 'v2'] as const;
export type ProtocolSetting = (typeof PROTOCOL_SETTINGS)[number];
export const DEFAULT_PROTOCOL: ProtocolSetting = 'v1';
const protocolSetting = z.enum(PROTOCOL_SETTINGS);

/** An agent's id: what settings.json and the "Add agent" forms accept. */
export const agentIdSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9._-]+$/, 'use letters, digits, dot, dash or underscore');

export const customAgentSchema = z
  .object({
    id: agentIdSchema,
    name: z.string().min(1).max(200),
    /** A local agent: the command to start (or `url` for a remote one, docs/REMOTE.md). */
    command: z.string().min(1).optional(),
    args: z.array(z.string()).default([]),
    env: env.default({}),
    protocol: protocolSetting.optional(),
    // ---- remote agents (issue 26): ACP over WebSocket or Streamable HTTP instead of a process
    /** `ws://`, `wss://`, `http://` or `https://`; plain ws/http only to loopback unless `allowInsecure`. */
    url: z.string().min(1).max(2048).optional(),
    /** Headers sent on every request (e.g. `Authorization`); secret values live in the secret store. */
    headers: env.optional(),
    /** Names of headers whose values are kept in the secret store (never in this file). */
    secretHeaders: z.array(z.string().min(1).max(200)).max(50).optional(),
    /** Allow plain ws/http to a non-loopback address (unencrypted: a warning says why). */
    allowInsecure: z.boolean().optional(),
    /** Offer this computer's files (`fs/*`) to the remote agent. Off by default: they are not on its machine. */
    clientFs: z.boolean().optional(),
    /** Offer this computer's terminals (`terminal/*`) to the remote agent. Off by default. */
    clientTerminal: z.boolean().optional(),
    /** Seconds without data from a remote agent, while an answer is awaited, before its connection counts as dead (default 45). */
    stallSeconds: z.number().min(0.1).max(3600).optional(),
  })
  .passthrough()
  .refine((agent) => Boolean(agent.command) !== Boolean(agent.url), {
    message: 'give either "command" (a local agent) or "url" (a remote agent), not both and not neither',
    path: ['command'],
  });

export const agentOverrideSchema = z
  .object({
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    env: env.optional(),
    protocol: protocolSetting.optional(),
  })
  .passthrough();

export const mcpServerSchema = z.union([
  z.object({ name: z.string(), command: z.string(), args: z.array(z.string()).default([]), env: env.default({}) }).passthrough(),
  z.object({ name: z.string(), type: z.enum(['http', 'sse']), url: z.string().url(), headers: env.default({}) }).passthrough(),
]);

/**
 * Worktree sessions: where new worktrees go (default `<data>/worktrees`), and the files copied
 * into each new worktree from the repository (untracked files such as `.env` that a checkout
 * lacks); nothing else is copied.
 */
export const worktreeSettingsSchema = z
  .object({
    folder: z.string().min(1).optional(),
    copyFiles: z
      .array(
        z
          .string()
          .min(1)
          .refine((file) => !file.startsWith('/') && !file.split(/[\\/]/).includes('..'), 'a path relative to the repository, without ".."'),
      )
      .max(200)
      .default([]),
  })
  .passthrough();

/** Checkpoints of the session's folders (issue 24): on or off, the size limit per file, pruning. */
export const checkpointSettingsSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** Files larger than this are left out of checkpoints (and listed in a note). */
    maxFileMB: z.number().positive().max(1024).default(5),
    /** Checkpoints older than this are pruned. */
    maxAgeDays: z.number().positive().max(3650).default(30),
    /** Above this, the oldest checkpoints are pruned until the space used is under it. */
    maxTotalMB: z.number().positive().default(2048),
  })
  .passthrough();

export const settingsSchema = z
  .object({
    agents: z.array(customAgentSchema).default([]),
    agentOverrides: z.record(z.string(), agentOverrideSchema).default({}),
    mcpServers: z.array(mcpServerSchema).default([]),
    theme: z.enum(['system', 'light', 'dark']).default('system'),
    notifications: z.boolean().default(true),
    /** What to do when an agent reads or writes outside the session's workspace folders. */
    outsideWorkspace: z.enum(['ask', 'deny']).default('ask'),
    registryUrl: z.string().url().optional(),
    /** Remembered "always" permission choices: `${agentId}:${toolKind}` → optionKind. */
    alwaysAllow: z.record(z.string(), z.string()).default({}),
    /** Worktree sessions (docs/WORKTREES.md). */
    worktrees: worktreeSettingsSchema.prefault({}),
    /** Checkpoints before every turn (issue 24, docs/CHECKPOINTS.md). */
    checkpoints: checkpointSettingsSchema.default(checkpointSettingsSchema.parse({})),
  })
  .passthrough();

export type Settings = z.output<typeof settingsSchema>;
/** settings.json as written (before defaults; unknown keys kept). */
export type SettingsInput = z.input<typeof settingsSchema>;
export type CustomAgent = z.output<typeof customAgentSchema>;
export type McpServerSetting = z.output<typeof mcpServerSchema>;

export const defaultSettings: Settings = settingsSchema.parse({});

/** Turns a zod error into one line per problem, naming where it is: `agents[0].command: Required`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.reduce<string>((acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key)), '');
      return `${where || '(top level)'}: ${issue.message}`;
    })
    .join('; ');
}

const agentOverrideRecord = z.record(z.string(), agentOverrideSchema);

/** A misspelt `protocol` must not lose the agent: it falls back to the default (the error still names it). */
function withoutBadProtocol(schema: z.ZodType): (value: Json) => Json {
  return (value) => {
    if (schema.safeParse(value).success || !isJsonObject(value) || !('protocol' in value)) return value;
    return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'protocol'));
  };
}

/** The protocol setting for an agent: its custom entry or its override, else the default. */
export function protocolFor(settings: Settings, agentId: string): ProtocolSetting {
  const custom = settings.agents.find((agent) => agent.id === agentId)?.protocol;
  return settings.agentOverrides[agentId]?.protocol ?? custom ?? DEFAULT_PROTOCOL;
}

/** Parses settings text: the settings to use and, if the text was bad, why. Never throws. */
export function parseSettings(text: string): { settings: Settings; error: string | null } {
  let json: Json;
  try {
    json = parseJson(text);
  } catch (e) {
    return { settings: defaultSettings, error: `settings.json is not valid JSON: ${(e as Error).message}` };
  }
  const result = settingsSchema.safeParse(json);
  if (result.success) return { settings: result.data, error: null };
  // Keep every part that is valid: one bad agent must not hide the others or reset the theme.
  const salvaged: JsonObject = {};
  if (isJsonObject(json)) {
    for (const [key, value] of Object.entries(json)) {
      if (key === 'agents' && Array.isArray(value)) {
        salvaged.agents = value.map(withoutBadProtocol(customAgentSchema)).filter((agent) => customAgentSchema.safeParse(agent).success);
        continue;
      }
      if (key === 'agentOverrides' && isJsonObject(value)) {
        const fix = withoutBadProtocol(agentOverrideSchema);
        const fixed = Object.fromEntries(Object.entries(value).map(([id, override]) => [id, fix(override)]));
        if (agentOverrideRecord.safeParse(fixed).success) salvaged[key] = fixed;
        continue;
      }
      const shape = settingsSchema.shape as Record<string, z.ZodType>;
      if (!shape[key] || shape[key].safeParse(value).success) salvaged[key] = value;
    }
  }
  const fallback = settingsSchema.safeParse(salvaged);
  return {
    settings: fallback.success ? fallback.data : defaultSettings,
    error: `settings.json has problems (the rest of the file is used): ${describeIssues(result.error)}`,
  };
}

/**
 * settings.json (parsed, any shape) with one agent's protocol set: on its custom entry when it
 * has one (where a person would look for it), else in its override. Everything else is kept.
 */
export function withAgentProtocol(json: JsonObject, agentId: string, protocol: ProtocolSetting): JsonObject {
  return withAgentField(json, agentId, 'protocol', protocol);
}

/**
 * settings.json (parsed, any shape) with one field of an agent set: on its custom entry when it
 * has one (where a person would look for it), else in its `agentOverrides` entry. Everything
 * else is kept.
 */
export function withAgentField(json: JsonObject, agentId: string, field: string, value: Json): JsonObject {
  const agents = Array.isArray(json.agents) ? json.agents : [];
  const index = agents.findIndex((agent) => isJsonObject(agent) && agent.id === agentId);
  const entry = agents[index];
  if (isJsonObject(entry)) {
    const next = [...agents];
    next[index] = { ...entry, [field]: value };
    return { ...json, agents: next };
  }
  const overrides = isJsonObject(json.agentOverrides) ? json.agentOverrides : {};
  const current = overrides[agentId];
  return { ...json, agentOverrides: { ...overrides, [agentId]: { ...(isJsonObject(current) ? current : {}), [field]: value } } };
}
