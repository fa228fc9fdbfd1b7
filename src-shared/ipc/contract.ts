import { z } from 'zod';
import type { SessionEvent } from '../session/events';
import type { AppState } from './appState';
import { event, request } from './define';
import { sessionIdSchema } from './ids';
import { registryEvents, registryRequests } from './registryContract';
import { historyRequests } from './historyContract';
import { logRequests } from './logContract';
import { agentWorkRequests } from './agentWorkContract';
import { worktreeRequests } from './worktreeContract';
import { remoteRequests } from './remoteContract';
import { checkpointRequests } from './checkpointContract';
import { inspectorEvents, inspectorRequests } from './inspectorContract';
import { windowRequests } from './windowContract';
import { firstPaintRequests } from './firstPaintContract';
import { reviewRequests } from './reviewContract';

/**
 * The one IPC contract between the renderer and main. The preload, main's handlers, the
 * WebSocket host and the renderer's bridge are all generated from these two tables.
 * A new feature is a row here, a handler in the core and a call in the renderer.
 */

const id = z.string().min(1).max(200);
const path = z.string().min(1).max(4096);
const text = z.string().max(1_000_000);

/** A prompt content block (ACP `ContentBlock`); only the discriminator is checked here. */
export const contentBlockSchema = z.object({ type: z.string().min(1).max(100) }).catchall(z.unknown());

export const requests = {
  'app.state': request<AppState>()(z.object({}).strict(), 'Everything outside the transcripts: agents, sessions, tabs, notices.'),
  'session.new': request<{ sessionId: string }>()(
    z
      .object({
        agentId: id,
        cwd: path,
        additionalDirectories: z.array(path).max(32).optional(),
      })
      .strict(),
    'Start a session with an agent in a workspace folder (starts the agent if needed).',
  ),
  'session.events': request<{ events: SessionEvent[] }>()(
    z.object({ sessionId: sessionIdSchema, afterSeq: z.number().int().min(0) }).strict(),
    "The session's events after a sequence number (0: all), read from its log.",
  ),
  'session.prompt': request<{ queued: boolean }>()(
    z.object({ sessionId: sessionIdSchema, prompt: z.array(contentBlockSchema).min(1).max(200) }).strict(),
    'Send a prompt; queued visibly when a turn is running.',
  ),
  'session.cancel': request<{ ok: true }>()(z.object({ sessionId: sessionIdSchema }).strict(), 'Cancel the running turn and every request it waits on.'),
  'session.open': request<{ ok: true }>()(z.object({ sessionId: sessionIdSchema }).strict(), 'Open a tab for a session and make it active.'),
  'session.close': request<{ ok: true }>()(z.object({ sessionId: sessionIdSchema }).strict(), "Close a session's tab (its log stays)."),
  'tabs.set': request<{ ok: true }>()(
    z.object({ open: z.array(sessionIdSchema).max(500), active: sessionIdSchema.nullable() }).strict(),
    'Reorder tabs or change the active one.',
  ),
  'permission.respond': request<{ ok: true }>()(
    z.object({ sessionId: sessionIdSchema, requestId: id, optionId: id.nullable() }).strict(),
    'Answer a permission request with one of its options (null cancels it).',
  ),
  'elicitation.respond': request<{ ok: true }>()(
    z
      .object({
        sessionId: sessionIdSchema,
        requestId: id,
        action: z.enum(['accept', 'decline', 'cancel']),
        content: z.record(z.string(), z.unknown()).optional(),
      })
      .strict(),
    'Answer an elicitation (form or URL) from the agent.',
  ),
  'config.set': request<{ ok: true }>()(
    z.object({ sessionId: sessionIdSchema, configId: id, value: z.union([z.string().max(1000), z.boolean()]) }).strict(),
    'Set a session config option (select or boolean).',
  ),
  'mode.set': request<{ ok: true }>()(z.object({ sessionId: sessionIdSchema, modeId: id }).strict(), 'Set the legacy session mode.'),
  'terminal.input': request<{ ok: true }>()(
    z.object({ sessionId: sessionIdSchema, terminalId: id, data: z.string().max(65_536) }).strict(),
    'Type into an interactive terminal (sign-in).',
  ),
  'terminal.resize': request<{ ok: true }>()(
    z.object({ sessionId: sessionIdSchema, terminalId: id, cols: z.number().int().min(2).max(1000), rows: z.number().int().min(2).max(1000) }).strict(),
    'Resize a terminal.',
  ),
  'agent.restart': request<{ ok: true }>()(z.object({ agentId: id }).strict(), 'Restart an agent process and reconnect its sessions.'),
  'agent.stderr': request<{ lines: string[] }>()(z.object({ agentId: id }).strict(), "The agent's recent stderr lines."),
  'auth.start': request<{ ok: true; terminalId?: string }>()(
    z
      .object({
        sessionId: sessionIdSchema,
        methodId: id,
        env: z.record(z.string().max(200), z.string().max(10_000)).optional(),
      })
      .strict(),
    'Sign in with one of the agent’s auth methods (agent, env_var with `env`, terminal: answers the sign-in terminal), then retry what was blocked.',
  ),
  'agent.logout': request<{ ok: true; loggedOut: boolean; forgotValues: boolean }>()(
    z.object({ agentId: id }).strict(),
    'Sign out of an agent: `logout` when it advertises it, and forget its stored sign-in values.',
  ),
  'fs.list': request<{ path: string; parent: string | null; entries: { name: string; dir: boolean }[] }>()(
    z.object({ path: path.optional() }).strict(),
    'List a folder, for choosing a workspace.',
  ),
  'fs.readFile': request<{ path: string; text: string; truncated: boolean }>()(
    z.object({ sessionId: sessionIdSchema, path: path }).strict(),
    "Read a file inside the session's workspace folders (for the read-only file view).",
  ),
  'fs.search': request<{ root: string; paths: string[] }>()(
    z.object({ sessionId: sessionIdSchema, query: z.string().max(500) }).strict(),
    "Files under the session's workspace folder whose path matches the query (the composer's @ picker; capped).",
  ),
  'permissions.remembered': request<{ items: { key: string; agentId: string; toolKind: string; optionKind: string }[] }>()(
    z.object({}).strict(),
    'The remembered "always" permission choices (settings.alwaysAllow).',
  ),
  'permissions.forget': request<{ ok: true }>()(z.object({ key: z.string().min(1).max(500) }).strict(), 'Forget one remembered "always" permission choice.'),
  'settings.read': request<{ path: string; text: string; error: string | null }>()(
    z.object({}).strict(),
    'The settings file as text, and the problem with it if it is malformed.',
  ),
  'settings.write': request<{ error: string | null }>()(
    z.object({ text: text }).strict(),
    'Replace the settings file (validated first; a bad file is refused with the reason).',
  ),
  ...registryRequests,
  ...historyRequests,
  ...logRequests,
  ...agentWorkRequests,
  ...worktreeRequests,
  ...remoteRequests,
  ...checkpointRequests,
  ...inspectorRequests,
  ...windowRequests,
  ...firstPaintRequests,
  ...reviewRequests,
} as const;

export const events = {
  'app.state': event<AppState>('The app state changed (agents, sessions, tabs, notices).'),
  'session.events': event<{ sessionId: string; events: SessionEvent[] }>("A batch of a session's events, in order (flushed at most once per frame)."),
  'ui.command': event<{
    command: 'newSession' | 'closeTab' | 'nextTab' | 'previousTab' | 'settings' | 'installAgent' | 'focusSession';
    /** For `focusSession`: the tab to show. */
    sessionId?: string;
    /** For `installAgent` from a deep link: the catalog entry to open. */
    agentId?: string;
  }>('An app command from the desktop shell (menu, notification click, acp-desktop:// link) for the renderer to carry out.'),
  ...registryEvents,
  ...inspectorEvents,
} as const;

export type Requests = typeof requests;
export type RequestName = keyof Requests;
export type RequestInput<K extends RequestName> = z.input<Requests[K]['input']>;
export type ParsedInput<K extends RequestName> = z.output<Requests[K]['input']>;
export type RequestResult<K extends RequestName> = Requests[K]['result'];
export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<K extends EventName> = Events[K]['payload'];

export const requestNames = Object.keys(requests) as RequestName[];
export const eventNames = Object.keys(events) as EventName[];

// In its own module so that a host can check a request's size before it loads the contract.
export { MAX_REQUEST_BYTES } from './limits';

/** The error every failed request answers with. */
export interface ContractError {
  code: 'bad_request' | 'unknown_request' | 'too_large' | 'not_found' | 'failed';
  message: string;
}

/** What main implements: one async handler per request. */
export type Handlers = { [K in RequestName]: (input: ParsedInput<K>) => Promise<RequestResult<K>> };

/** The renderer's view of main: the contract as a typed function surface. */
export interface AppBridge {
  request<K extends RequestName>(name: K, input: RequestInput<K>): Promise<RequestResult<K>>;
  on<K extends EventName>(name: K, listener: (payload: EventPayload<K>) => void): () => void;
}

export function isRequestName(name: unknown): name is RequestName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(requests, name);
}
