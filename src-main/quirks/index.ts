/**
 * Per-agent fixes applied to the events of a session update before they are recorded (one file
 * per agent). Each returns the event to record (possibly cleaned) and any app events it implies.
 */
import type { SessionEventBody } from '../../src-shared/session/events';
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
  event: SessionEventBody,
  isClientTerminal: (terminalId: string) => boolean,
  cwd?: string,
): SessionEventBody[] {
  if (event.kind === 'message.chunk' && event.role === 'thought' && isGemini(agentId)) return [{ ...event, content: stripThoughtMarker(event.content) }];
  // v2 agents report their terminals themselves (`terminal_update`): the ACP v1 workarounds are for v1 calls.
  if (event.kind !== 'tool.updated' || event.metaPatch) return [event];
  const fields = isGemini(agentId) ? absoluteDiffPaths(event.fields, cwd) : event.fields;
  let terminals = agentTerminals.get(session);
  if (!terminals) agentTerminals.set(session, (terminals = newAgentTerminals()));
  const events = agentTerminalEvents(event.toolCallId, fields, terminals, isClientTerminal);
  const raw = rawOutputTerminal(event.toolCallId, fields, terminals);
  events.push(...raw.events);
  const body: SessionEventBody = { ...event, fields: raw.update };
  // The terminal exists before the card that shows it is recorded; its output follows.
  return [...events.filter((e) => e.kind === 'terminal.created'), body, ...events.filter((e) => e.kind !== 'terminal.created')];
}
