/**
 * Redaction of JSON-RPC traffic before it reaches the inspector page or a wire log file
 * (issue 27). Three rules, applied together to every message:
 *
 * 1. Known secret values are replaced wherever they occur in a string: the agent's environment
 *    values marked secret (or named like a secret), MCP server env and headers likewise, stored
 *    sign-in values, and the values a person typed into password fields of an elicitation.
 *    An agent that echoes its API key in a message is caught by this rule.
 * 2. A string under a key named like a secret (`token`, `apiKey`, `Authorization`, `password`,
 *    `GITHUB_TOKEN`...), and the `value` of a `{ name, value }` pair whose name is one (ACP's
 *    `EnvVariable` and `HttpHeader`), is replaced whatever it is.
 * 3. Sign-in requests (`authenticate`, v2 `auth/login`): every string in their params but the
 *    method id is replaced; the form's fields are secrets by definition.
 * 4. Elicitation fields of `password` format (or `writeOnly`): the redactor remembers them from
 *    the agent's `elicitation/create` request and replaces them in the app's answer.
 *
 * Over-redaction is the safe failure: a short secret (under {@link MIN_SECRET_LENGTH}
 * characters) is not searched for as a value, but rule 2 still applies to it.
 */
import { isJsonObject, parseJson, type Json, type JsonObject } from '../json';

export const REDACTED = '[redacted]';

/** Shorter known values are not replaced inside text (they would blank ordinary words). */
export const MIN_SECRET_LENGTH = 4;

const SECRET_NAME = /(token|secret|password|passwd|passphrase|apikey|authorization|credential|credentials|cookie|privatekey|accesskey|bearer)$/;

/**
 * Whether a key, variable or header name names a secret. The name is compared without case or
 * separators, by its ending: `GITHUB_TOKEN`, `x-api-key`, `clientSecret` are; `inputTokens`
 * (a count) and `tokenizer` are not.
 */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name.toLowerCase().replace(/[^a-z]/g, ''));
}

/** The sign-in methods of each protocol version, whose params are all secret but the method id. */
const SIGN_IN_METHODS = new Set(['authenticate', 'auth/login']);
const SIGN_IN_KEEP = new Set(['methodId']);

/** A redactor for one agent: its secret values, longest first (a secret containing another is replaced whole). */
export interface Redactor {
  /** A JSON-RPC message with secrets replaced (a new value; the input is not changed); `dir`: which way it went. */
  message(message: Json, dir?: 'in' | 'out'): Json;
  /** A line of JSON text redacted; text that is not JSON has only known values replaced. */
  line(text: string, dir?: 'in' | 'out'): string;
  /** A scrubber for secrets split across streamed chunks, to run over messages in wire order. */
  streams(): StreamScrubber;
}

/**
 * Which fields of an elicitation are passwords, by the request's JSON-RPC id: kept across
 * redactors of one agent (its secret values may change between a request and its answer).
 */
export class PasswordFields {
  private byId = new Map<string, Set<string>>();

  /** Notes an `elicitation/create` request's password fields; returns the fields to blank in an answer with this id. */
  see(message: JsonObject, dir?: 'in' | 'out'): Set<string> | undefined {
    const key = `${typeof message.id}:${String(message.id)}`;
    // The agent asks (`in`), the app answers (`out`): ids are per sender.
    if (message.method === 'elicitation/create' && dir !== 'out') {
      const schema = isJsonObject(message.params) ? message.params.requestedSchema : undefined;
      const properties = isJsonObject(schema) && isJsonObject(schema.properties) ? schema.properties : {};
      const fields = new Set<string>();
      for (const [name, field] of Object.entries(properties)) {
        if (isJsonObject(field) && (field.format === 'password' || field.writeOnly === true)) fields.add(name);
      }
      if (fields.size) this.byId.set(key, fields);
      // A bound: requests never answered must not grow this forever.
      if (this.byId.size > 1000) this.byId.delete(this.byId.keys().next().value!);
      return undefined;
    }
    if (message.method === undefined && 'result' in message && dir !== 'in') {
      // Kept after the answer: the same answer may be decoded again (another window, an export).
      return this.byId.get(key);
    }
    return undefined;
  }
}

export function createRedactor(secretValues: Iterable<string>, passwords: PasswordFields = new PasswordFields()): Redactor {
  const values = [...new Set([...secretValues].filter((value) => typeof value === 'string' && value.length >= MIN_SECRET_LENGTH))].sort(
    (a, b) => b.length - a.length,
  );
  const scrub = (text: string): string => {
    let out = text;
    for (const value of values) if (out.includes(value)) out = out.split(value).join(REDACTED);
    return out;
  };
  const walk = (value: Json, secret: boolean): Json => {
    if (typeof value === 'string') return secret ? REDACTED : scrub(value);
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) return value.map((item) => walk(item, secret));
    return walkObject(value, secret);
  };
  const walkObject = (object: JsonObject, secret: boolean): JsonObject => {
    const pairSecret = typeof object.name === 'string' && isSecretName(object.name);
    const out: JsonObject = {};
    for (const [key, item] of Object.entries(object)) {
      out[key] = walk(item, secret || isSecretName(key) || (pairSecret && key === 'value'));
    }
    return out;
  };
  const message = (input: Json, dir?: 'in' | 'out'): Json => {
    if (!isJsonObject(input)) return walk(input, false);
    if (typeof input.method === 'string' && SIGN_IN_METHODS.has(input.method) && isJsonObject(input.params)) {
      const params: JsonObject = {};
      for (const [key, item] of Object.entries(input.params)) params[key] = walk(item, !SIGN_IN_KEEP.has(key));
      // The rest as any message; `params` keeps its place in the text.
      return { ...walkObject({ ...input, params: {} }, false), params };
    }
    const blank = passwords.see(input, dir);
    if (blank && isJsonObject(input.result) && isJsonObject(input.result.content)) {
      const result = input.result;
      const hidden = Object.fromEntries(Object.entries(input.result.content).map(([key, item]) => [key, blank.has(key) ? REDACTED : item]));
      return walk({ ...input, result: { ...result, content: hidden } }, false);
    }
    return walk(input, false);
  };
  const streams = (): StreamScrubber => new StreamScrubber(values);
  return {
    message,
    streams,
    line: (text, dir) => {
      let parsed: Json;
      try {
        parsed = parseJson(text);
      } catch {
        return scrub(text);
      }
      return JSON.stringify(message(parsed, dir));
    },
  };
}

/**
 * Secrets split across streamed chunks (rule 1 alone misses `"sk-12"` + `"345"`: agents stream a
 * few characters per chunk). Fed the messages in wire order, it keeps the last characters of
 * each streamed message (`*_chunk` updates, by session, kind and message id) and blanks in a
 * chunk every part of a secret that the joined text holds, that the text read so far ends with
 * (its end may come in the next chunk), or, in the first chunk seen of a message, that the text
 * begins with (its start was before what is read). The residue: when a chunk ends just after the
 * first 1–3 characters of a secret, those characters show.
 */
export class StreamScrubber {
  private tails = new Map<string, string>();
  private readonly keep: number;

  constructor(private readonly values: readonly string[]) {
    this.keep = Math.max(0, ...values.map((value) => value.length - 1));
  }

  /** The message with its streamed text scrubbed (a copy when anything changed; the input is not changed). */
  scrub(message: Json): Json {
    if (!this.values.length) return message;
    const chunk = streamedText(message);
    if (!chunk) return message;
    const text = chunk.text;
    const tail = this.tails.get(chunk.key);
    const joined = (tail ?? '') + text;
    const offset = joined.length - text.length;
    const hidden = new Uint8Array(joined.length);
    for (const value of this.values) {
      for (let at = joined.indexOf(value); at !== -1; at = joined.indexOf(value, at + 1)) hidden.fill(1, at, at + value.length);
      for (let length = Math.min(value.length - 1, joined.length); length >= MIN_SECRET_LENGTH; length--) {
        if (joined.endsWith(value.slice(0, length))) {
          hidden.fill(1, joined.length - length);
          break;
        }
      }
      if (tail !== undefined) continue;
      for (let length = Math.min(value.length - 1, joined.length); length >= MIN_SECRET_LENGTH; length--) {
        if (joined.startsWith(value.slice(value.length - length))) {
          hidden.fill(1, 0, length);
          break;
        }
      }
    }
    this.tails.delete(chunk.key);
    this.tails.set(chunk.key, joined.slice(Math.max(0, joined.length - this.keep)));
    // A bound: streams that ended long ago are forgotten first.
    if (this.tails.size > 256) this.tails.delete(this.tails.keys().next().value!);
    if (!hidden.subarray(offset).includes(1)) return message;
    let out = '';
    let inside = false;
    for (let i = offset; i < joined.length; i++) {
      const secret = hidden[i] === 1;
      if (secret && !inside) out += REDACTED;
      else if (!secret) out += joined[i];
      inside = secret;
    }
    const { message: whole, params, update, content } = chunk;
    return { ...whole, params: { ...params, update: { ...update, content: { ...content, text: out } } } };
  }
}

/** A streamed text chunk (`agent_message_chunk`, `agent_thought_chunk`, ...): its stream's key, its text and the objects around it. */
function streamedText(message: Json): { key: string; text: string; message: JsonObject; params: JsonObject; update: JsonObject; content: JsonObject } | null {
  if (!isJsonObject(message) || message.method !== 'session/update' || !isJsonObject(message.params)) return null;
  const params = message.params;
  const update = params.update;
  if (!isJsonObject(update) || typeof update.sessionUpdate !== 'string' || !update.sessionUpdate.endsWith('_chunk')) return null;
  const content = update.content;
  if (!isJsonObject(content) || typeof content.text !== 'string') return null;
  const key = `${String(params.sessionId)}\u0000${update.sessionUpdate}\u0000${String(update.messageId ?? '')}`;
  return { key, text: content.text, message, params, update, content };
}
