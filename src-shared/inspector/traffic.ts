import { isJsonObject, parseJson, type Json } from '../json';
import type { Redactor } from './redact';

/** Which way a message went: `in` from the agent to the app, `out` from the app to the agent. */
export type TrafficDirection = 'in' | 'out';

/** What a JSON-RPC message is, by its shape (JSON-RPC 2.0 §4–5). */
export type TrafficKind = 'request' | 'notification' | 'response' | 'error' | 'batch' | 'invalid';

/** One message of an agent's traffic as the inspector shows it: decoded and already redacted. */
export interface TrafficRow {
  /** Counts up per agent from 1 across restarts; a gap means the ring buffer dropped older rows. */
  seq: number;
  /** When it crossed the stream boundary (epoch ms). */
  t: number;
  dir: TrafficDirection;
  kind: TrafficKind;
  method?: string;
  /** The JSON-RPC id, for requests and responses. */
  id?: string | number | null;
  /** The ACP session it names (`params.sessionId`, or `result.sessionId` of an answer). */
  sessionId?: string;
  /** The JSON-RPC error of an error response. */
  error?: { code?: number; message?: string };
  /** The message as JSON text, redacted (cut at {@link MAX_ROW_TEXT}: then `truncated`). */
  text: string;
  /** Size of the line on the wire, in characters. */
  size: number;
  truncated?: boolean;
}

/** Longest message text sent to the page; a longer one is cut and shown as text, not as a tree. */
export const MAX_ROW_TEXT = 512 * 1024;

function classify(message: Json): Pick<TrafficRow, 'kind' | 'method' | 'id' | 'sessionId' | 'error'> {
  if (Array.isArray(message)) return { kind: 'batch' };
  if (!isJsonObject(message)) return { kind: 'invalid' };
  const id = typeof message.id === 'string' || typeof message.id === 'number' || message.id === null ? message.id : undefined;
  const params = isJsonObject(message.params) ? message.params : null;
  const result = isJsonObject(message.result) ? message.result : null;
  const sessionId = typeof params?.sessionId === 'string' ? params.sessionId : typeof result?.sessionId === 'string' ? result.sessionId : undefined;
  const base = { ...(id !== undefined ? { id } : {}), ...(sessionId ? { sessionId } : {}) };
  if (typeof message.method === 'string') return { kind: 'id' in message && id !== undefined ? 'request' : 'notification', method: message.method, ...base };
  if ('error' in message) {
    const error = isJsonObject(message.error) ? message.error : {};
    return {
      kind: 'error',
      ...base,
      error: { ...(typeof error.code === 'number' ? { code: error.code } : {}), ...(typeof error.message === 'string' ? { message: error.message } : {}) },
    };
  }
  if ('result' in message) return { kind: 'response', ...base };
  return { kind: 'invalid', ...base };
}

/** A raw line of the wire, as the ring buffer keeps it. */
export interface TrafficLine {
  seq: number;
  t: number;
  dir: TrafficDirection;
  line: string;
}

/**
 * The wire's lines decoded into rows, redacted first: the ring buffer keeps raw lines
 * (cheap on the hot path), and this runs only when the inspector asks for them. The first
 * `context` lines are read (a secret streamed across them and the rest is found whole) but not
 * returned.
 */
export function decodeTrafficLines(entries: readonly TrafficLine[], redactor: Redactor, context = 0): TrafficRow[] {
  const streams = redactor.streams();
  const parsed = entries.map((entry) => {
    try {
      return { ok: true as const, message: streams.scrub(parseJson(entry.line)) };
    } catch {
      return { ok: false as const, message: undefined };
    }
  });
  return entries.slice(context).map((entry, i) => decodeParsed(entry, parsed[i + context], redactor));
}

/** One line decoded into a row (see decodeTrafficLines; a secret streamed across lines needs them all). */
export function decodeTraffic(entry: TrafficLine, redactor: Redactor): TrafficRow {
  return decodeTrafficLines([entry], redactor)[0];
}

function decodeParsed(entry: TrafficLine, parsed: { ok: true; message: Json } | { ok: false; message: undefined }, redactor: Redactor): TrafficRow {
  if (!parsed.ok) {
    const text = redactor.line(entry.line, entry.dir);
    return { seq: entry.seq, t: entry.t, dir: entry.dir, kind: 'invalid', text: cut(text), size: entry.line.length, ...truncatedFlag(text) };
  }
  const message = parsed.message;
  const shape = classify(message);
  const text = JSON.stringify(redactor.message(message, entry.dir));
  return { seq: entry.seq, t: entry.t, dir: entry.dir, ...shape, text: cut(text), size: entry.line.length, ...truncatedFlag(text) };
}

const cut = (text: string) => (text.length > MAX_ROW_TEXT ? text.slice(0, MAX_ROW_TEXT) : text);
const truncatedFlag = (text: string) => (text.length > MAX_ROW_TEXT ? { truncated: true } : {});

/** A request and its answer: the answer's method, and the time between them. */
export interface Pairing {
  /** For a response: the method of the request it answers. */
  method?: string;
  /** The other half's seq. */
  partner: number;
  /** Milliseconds from the request to its answer (on both halves). */
  latencyMs: number;
}

/**
 * Requests paired with their answers by id. Ids are per sender: the app's request 3 and the
 * agent's request 3 are different, so a request sent `out` is answered `in` and the reverse.
 */
export function pairRows(rows: readonly TrafficRow[]): Map<number, Pairing> {
  const open = new Map<string, TrafficRow>();
  const pairs = new Map<number, Pairing>();
  const key = (sender: TrafficDirection, id: unknown) => `${sender}:${typeof id}:${String(id)}`;
  for (const row of rows) {
    if (row.kind === 'request') open.set(key(row.dir, row.id), row);
    else if ((row.kind === 'response' || row.kind === 'error') && row.id !== undefined && row.id !== null) {
      const k = key(row.dir === 'in' ? 'out' : 'in', row.id);
      const request = open.get(k);
      if (!request) continue;
      open.delete(k);
      const latencyMs = row.t - request.t;
      pairs.set(request.seq, { partner: row.seq, latencyMs });
      pairs.set(row.seq, { partner: request.seq, latencyMs, method: request.method });
    }
  }
  return pairs;
}

/** What the inspector's filters ask for; an empty field filters nothing. */
export interface TrafficFilter {
  /** ACP session ids to show (rows naming no session are shown with any of them). */
  sessionIds?: readonly string[];
  /** A substring of the method (for answers: of the method they answer). */
  method?: string;
  dir?: TrafficDirection | 'both';
  /** A substring of the (redacted) message text, case-insensitive. */
  text?: string;
  /** Only errors (error answers, invalid lines). */
  errorsOnly?: boolean;
  /** Nothing after this time (epoch ms): "the messages that led to this". */
  until?: number;
}

export function filterRows(rows: readonly TrafficRow[], filter: TrafficFilter, pairs: Map<number, Pairing> = pairRows(rows)): TrafficRow[] {
  const method = filter.method?.trim().toLowerCase() ?? '';
  const text = filter.text?.trim().toLowerCase() ?? '';
  const sessions = filter.sessionIds && filter.sessionIds.length ? new Set(filter.sessionIds) : null;
  const bySeq = sessions ? new Map(rows.map((row) => [row.seq, row])) : null;
  return rows.filter((row) => {
    if (filter.dir && filter.dir !== 'both' && row.dir !== filter.dir) return false;
    if (filter.until !== undefined && row.t > filter.until) return false;
    if (filter.errorsOnly && row.kind !== 'error' && row.kind !== 'invalid') return false;
    if (sessions) {
      const own = row.sessionId ?? sessionOfPartner(row, pairs, bySeq!);
      if (own !== undefined && !sessions.has(own)) return false;
    }
    if (method && !(row.method ?? pairs.get(row.seq)?.method ?? '').toLowerCase().includes(method)) return false;
    if (text && !row.text.toLowerCase().includes(text)) return false;
    return true;
  });
}

/** An answer carries no session id; the request it answers does. */
function sessionOfPartner(row: TrafficRow, pairs: Map<number, Pairing>, bySeq: Map<number, TrafficRow>): string | undefined {
  const partner = pairs.get(row.seq)?.partner;
  return partner === undefined ? undefined : bySeq.get(partner)?.sessionId;
}

/** The shown rows as JSON Lines, one redacted message per line with its time and direction. */
export function toJsonl(rows: readonly TrafficRow[]): string {
  return rows
    .map((row) => {
      let msg: Json = row.text;
      if (!row.truncated) {
        try {
          msg = parseJson(row.text);
        } catch {
          msg = row.text;
        }
      }
      return JSON.stringify({ t: new Date(row.t).toISOString(), dir: row.dir === 'in' ? 'agent→client' : 'client→agent', msg });
    })
    .join('\n')
    .concat(rows.length ? '\n' : '');
}
