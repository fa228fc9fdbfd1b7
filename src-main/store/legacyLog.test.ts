import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reduceSession } from '../../src-shared/session/reducer';
import type { SessionState } from '../../src-shared/session/state';
import { decodeContentBlocks, decodeLocations, decodeToolContents } from '../acp/decode/content';
import { readEventLog } from './eventLog';
import {
  decodeAuthMethod,
  decodeBackground,
  decodeCommands,
  decodeConfigOptions,
  decodeContextUsage,
  decodeElicitationRequest,
  decodeModes,
  decodePermissionSubject,
  decodeToolCapabilities,
  decodeTurnUsage,
} from '../acp/decode/controls';

/*
 * Logs the release before the typed event model wrote (fixtures/README.md), opened by today's
 * app: each line converted when read (src-shared/session/legacyEvents.ts), then folded. A
 * person sees what that release showed: the folded state is the one it folded.
 */

const FIXTURES = join(import.meta.dirname, 'fixtures');

/** The state without the fold's lookup bookkeeping (how it finds messages by id is its own business). */
function shown(state: SessionState): unknown {
  const { messageIndex: _m, planIndex: _p, ...rest } = state;
  // A notice's time (`ts`, for the protocol inspector's "messages that led to this") is new since
  // that release and shows nothing itself: it is left out of the comparison.
  const entries = rest.entries.map(typedContent).map((entry) => {
    if (entry.kind !== 'notice') return entry;
    const { ts: _ts, ...notice } = entry;
    return notice;
  });
  const queue = rest.queue.map((queued) => ({ ...queued, prompt: decodeContentBlocks(queued.prompt) }));
  const permissions = rest.permissions.map((permission) => ({ ...permission, tool: typedToolFields(permission.tool) }));
  return JSON.parse(JSON.stringify({ ...rest, entries, queue, permissions }));
}

/*
 * That release kept content blocks, tool content and locations as the agent sent them; today's
 * state has them typed. Both sides are read through the same decoders (which leave typed values
 * as they are), so what is compared is what a person sees.
 */
function typedContent(entry: SessionState['entries'][number]): SessionState['entries'][number] {
  if (entry.kind === 'user') return { ...entry, content: decodeContentBlocks(entry.content) };
  if (entry.kind === 'agent') return { ...entry, blocks: decodeContentBlocks(entry.blocks) };
  if (entry.kind === 'tool') return { ...entry, content: decodeToolContents(entry.content), locations: decodeLocations(entry.locations) };
  return entry;
}

function typedToolFields(tool: SessionState['permissions'][number]['tool']): SessionState['permissions'][number]['tool'] {
  return {
    ...tool,
    ...(tool.content ? { content: decodeToolContents(tool.content) } : {}),
    ...(tool.locations ? { locations: decodeLocations(tool.locations) } : {}),
  };
}

/**
 * That release kept a session's controls (config options, commands, usage, questions, …) raw; today's
 * state holds them decoded. Both sides go through the same decoders (idempotent: today's values
 * come out unchanged), so what is compared is what a person is shown.
 */
function decodedControls(state: SessionState): SessionState {
  const raw = state as unknown as { [key: string]: unknown };
  const decoded: SessionState = {
    ...state,
    configOptions: decodeConfigOptions(state.configOptions),
    modes: decodeModes(state.modes),
    commands: decodeCommands(state.commands),
    usage: state.usage && decodeContextUsage(state.usage),
    elicitations: state.elicitations.map((e) => ({ ...e, request: decodeElicitationRequest(e.request) })),
    permissions: state.permissions.map((p) => ({
      ...p,
      ...('subject' in p ? { subject: decodePermissionSubject(p.subject) } : {}),
      ...(p.tool.capabilities !== undefined ? { tool: { ...p.tool, capabilities: decodeToolCapabilities(p.tool.capabilities) } } : {}),
    })),
    authMethods: state.authMethods && state.authMethods.map((method) => decodeAuthMethod(method)),
    entries: state.entries.map((entry) => {
      if (entry.kind === 'stop' && 'usage' in entry) return { ...entry, usage: decodeTurnUsage(entry.usage) };
      if (entry.kind === 'tool' && entry.capabilities) return { ...entry, capabilities: decodeToolCapabilities(entry.capabilities) ?? undefined };
      return entry;
    }),
  };
  if ('background' in raw) decoded.background = decodeBackground(raw.background) ?? undefined;
  return decoded;
}

describe('logs written by the release before the typed event model', () => {
  for (const name of ['release-v1', 'release-v2', 'release-v2-native']) {
    it(`${name}: every line is read, and the session folds to what that release showed`, async () => {
      const { events, skipped } = await readEventLog(join(FIXTURES, `${name}.jsonl`));
      const lines = readFileSync(join(FIXTURES, `${name}.jsonl`), 'utf8')
        .split('\n')
        .filter(Boolean);
      expect(skipped).toBe(0);
      expect(events).toHaveLength(lines.length);
      expect(events.some((event) => (event.kind as string) === 'acp.update')).toBe(false);
      const before = JSON.parse(readFileSync(join(FIXTURES, `${name}.state.json`), 'utf8')) as SessionState;
      const today = reduceSession(undefined, events);
      // Today's state is typed already: decoding its controls again changes nothing.
      expect(shown(decodedControls(today))).toEqual(shown(today));
      expect(shown(today)).toEqual(shown(decodedControls(before)));
    });
  }
});
