import { z } from 'zod';
import { sessionIdSchema } from './ids';
import { request } from './define';

/**
 * Sessions that last: history, search, export, drafts and "start a new session from here".
 * Spread into `contract.ts`, so it is still one table. See docs/HISTORY.md.
 */

/** One session in the history view: local (has a log), listed by its agent, or both. */
export interface HistoryItem {
  /** The app's session id; null for a session only its agent knows (from `session/list`). */
  sessionId: string | null;
  agentId: string;
  agentName: string;
  cwd: string;
  /** From `session_info_update`, `session/list`, or the person's rename. */
  title: string | null;
  /** The first prompt, clipped: shown for sessions without a title (local sessions only). */
  preview?: string | null;
  /** The agent's session id (ACP `sessionId`), when known. */
  acpSessionId: string | null;
  /** Milliseconds since the epoch (0: unknown). */
  lastActivity: number;
  /** Prompts plus agent replies (null: unknown, for agent-only sessions). */
  messageCount: number | null;
  /** `local`: only on this machine; `agent`: only in the agent's list; `both`: merged by ACP session id. */
  origin: 'local' | 'agent' | 'both';
  /** Whether its tab is open. */
  open: boolean;
  readonly: boolean;
  forkedFrom?: string | null;
}

/** One search result: an entry of a session's transcript. */
export interface SearchHit {
  sessionId: string;
  /** The transcript entry's id (`<sessionId>:<seq>`), to scroll to. */
  entryId: string;
  entryKind: string;
  /** Text around the first match. */
  snippet: string;
  title: string | null;
  /** The session's first prompt, clipped (for untitled sessions). */
  preview?: string | null;
  agentName: string;
  cwd: string;
  lastActivity: number;
  score: number;
}

/** An export ready to download. */
export interface SessionExport {
  filename: string;
  mimeType: string;
  text: string;
}

const id = z.string().min(1).max(200);
const path = z.string().min(1).max(4096);

export const historyRequests = {
  'history.list': request<{ items: HistoryItem[] }>()(
    z.object({ cwd: path.optional() }).strict(),
    'Every local session (from the history index, without reading logs), newest first; optionally one workspace.',
  ),
  'history.agentSessions': request<{ items: HistoryItem[]; nextCursor: string | null }>()(
    z.object({ agentId: id, cwd: path.optional(), cursor: z.string().max(4096).optional() }).strict(),
    "One page of an agent's `session/list` (starts the agent if needed), merged with local sessions by ACP session id.",
  ),
  'history.openAgentSession': request<{ sessionId: string }>()(
    z.object({ agentId: id, acpSessionId: id, cwd: path, title: z.string().max(500).nullable().optional() }).strict(),
    'Open a session only the agent knows: a local session bound to its id, loaded with `session/load`.',
  ),
  'history.rename': request<{ ok: true }>()(
    z.object({ sessionId: sessionIdSchema, title: z.string().trim().min(1).max(500) }).strict(),
    "Rename a local session (the person's title wins over the agent's).",
  ),
  'history.delete': request<{ ok: true; agentDeleted: boolean }>()(
    z.object({ sessionId: sessionIdSchema.optional(), agentId: id.optional(), acpSessionId: id.optional(), alsoOnAgent: z.boolean().default(false) }).strict(),
    'Delete a local session (its log, tab, draft, index entries) and, when asked and advertised, on the agent with `session/delete`.',
  ),
  'history.fork': request<{ sessionId: string }>()(
    z.object({ sessionId: sessionIdSchema.optional(), agentId: id.optional(), acpSessionId: id.optional(), cwd: path.optional() }).strict(),
    'Fork a session with `session/fork` (when the agent advertises it) into a new tab that carries the transcript so far.',
  ),
  'search.query': request<{ hits: SearchHit[] }>()(
    z.object({ text: z.string().trim().min(1).max(500), limit: z.number().int().min(1).max(200).optional() }).strict(),
    "Full-text search over every session's messages.",
  ),
  'session.export': request<SessionExport>()(
    z.object({ sessionId: sessionIdSchema, format: z.enum(['markdown', 'jsonl']) }).strict(),
    'A session as readable Markdown, or its raw event log (for bug reports).',
  ),
  'session.continueNew': request<{ sessionId: string }>()(
    z.object({ sessionId: sessionIdSchema }).strict(),
    'Start a new session with the same agent and folder, its composer pre-filled with a quote of the old one.',
  ),
  'draft.get': request<{ text: string }>()(z.object({ sessionId: sessionIdSchema }).strict(), "A session's unsent composer text."),
  'draft.set': request<{ ok: true }>()(
    z.object({ sessionId: sessionIdSchema, text: z.string().max(1_000_000) }).strict(),
    "Keep a session's unsent composer text (survives restarts and crashes; empty clears it).",
  ),
} as const;
