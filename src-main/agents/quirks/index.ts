/**
 * Per-agent fixes applied to a session update before it is recorded (one file per agent).
 * Each returns the update to record (possibly cleaned) and any app events it implies.
 */
import type { RawObject, SessionEventBody } from '../../../src-shared/session/events';
import { type AgentTerminals, agentTerminalEvents, newAgentTerminals, rawOutputTerminal } from './codexAcp';
import { absoluteDiffPaths, isGemini, stripThoughtMarker } from './geminiCli';

const agentTerminals = new WeakMap<object, AgentTerminals>();

/**
 * `session` is any object that lives as long as the app session (it keys the quirk state);
 * `isClientTerminal` says whether a terminal id is one this app created; `cwd` is the session's folder.
 */
export function applyUpdateQuirks(
  agentId: string,
  session: object,
  update: RawObject,
  isClientTerminal: (terminalId: string) => boolean,
  cwd?: string,
): SessionEventBody[] {
  let cleaned = isGemini(agentId) ? stripThoughtMarker(update) : update;
  if (cleaned.sessionUpdate !== 'tool_call' && cleaned.sessionUpdate !== 'tool_call_update') return [{ kind: 'acp.update', update: cleaned }];
  if (isGemini(agentId)) cleaned = absoluteDiffPaths(cleaned, cwd);
  let terminals = agentTerminals.get(session);
  if (!terminals) agentTerminals.set(session, (terminals = newAgentTerminals()));
  const events = agentTerminalEvents(cleaned, terminals, isClientTerminal);
  const raw = rawOutputTerminal(cleaned, terminals);
  events.push(...raw.events);
  const body: SessionEventBody = { kind: 'acp.update', update: raw.update };
  // The terminal exists before the card that shows it is recorded; its output follows.
  return [...events.filter((e) => e.kind === 'terminal.created'), body, ...events.filter((e) => e.kind !== 'terminal.created')];
}
