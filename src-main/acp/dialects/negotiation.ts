import { AcpErrorCode } from '../../errors/errors';
import type { ProtocolSetting } from '../../../src-shared/settings';

/**
 * Which protocol version to speak with an agent, as a pure state machine (the driver in
 * `negotiate.ts` does the I/O). The rules, from the v2 RFDs and measured against the SDK's
 * protocol router:
 * - `v1` offers 1 in the v1 shape; `v2` and `auto` offer 2 in the v2 shape.
 * - An answer of 1 to a v2 offer: under `auto`, initialize again in the v1 shape on the same
 *   process (the router agent has read none of our v1 capabilities); under `v2`, an error.
 * - `-32022` with `data.supported`: the highest version both sides accept, else an error.
 * - The connection closed during a v2 initialize: under `auto`, restart the process on v1.
 * - A mismatch between the agent and the setting names both versions and the setting.
 */

export type Version = 1 | 2;

export type NegotiationInput =
  { type: 'answered'; protocolVersion: unknown } | { type: 'error'; code?: number; message?: string; data?: unknown } | { type: 'closed' };

export type NegotiationAction =
  /** Send `initialize` in this version's shape on the running process. */
  | { type: 'initialize'; version: Version }
  /** Stop the process, start it again, then send `initialize` in this version's shape. */
  | { type: 'restart'; version: Version }
  | { type: 'done'; version: Version }
  | { type: 'fail'; message: string };

export interface NegotiationState {
  setting: ProtocolSetting;
  agent: { name: string; id?: string };
  /** The version of the `initialize` in flight (null once done or failed). */
  offered: Version | null;
  tried: Version[];
  restarted: boolean;
}

export const SUPPORTED_VERSIONS: readonly Version[] = [2, 1];

/** Versions a setting allows, most preferred first. */
export function allowedVersions(setting: ProtocolSetting): Version[] {
  return setting === 'v1' ? [1] : setting === 'v2' ? [2] : [2, 1];
}

export function startNegotiation(setting: ProtocolSetting, agent: { name: string; id?: string }): { state: NegotiationState; action: NegotiationAction } {
  const version = allowedVersions(setting)[0];
  return { state: { setting, agent, offered: version, tried: [version], restarted: false }, action: { type: 'initialize', version } };
}

export function stepNegotiation(state: NegotiationState, input: NegotiationInput): { state: NegotiationState; action: NegotiationAction } {
  const offered = state.offered;
  if (offered === null) return { state, action: { type: 'fail', message: 'The protocol negotiation already finished.' } };
  const allowed = allowedVersions(state.setting);
  const next = (version: Version, restart = false) => ({
    state: { ...state, offered: version, tried: [...state.tried, version], restarted: state.restarted || restart },
    action: restart ? ({ type: 'restart', version } as const) : ({ type: 'initialize', version } as const),
  });
  const finish = (action: NegotiationAction) => ({ state: { ...state, offered: null }, action });
  const untried = (versions: readonly number[]) => allowed.find((v) => versions.includes(v) && !state.tried.includes(v));

  switch (input.type) {
    case 'answered': {
      const answered = input.protocolVersion;
      if (answered === offered) return finish({ type: 'done', version: offered });
      if (typeof answered !== 'number' || !Number.isInteger(answered)) {
        return finish({ type: 'fail', message: `${state.agent.name} answered initialize without a protocol version (${JSON.stringify(answered)}).` });
      }
      // The agent answered with the version it speaks: try that one if the setting allows it.
      const retry = untried([answered]);
      if (retry !== undefined) return next(retry);
      return finish({ type: 'fail', message: mismatch(state, [answered]) });
    }
    case 'error': {
      if (input.code === AcpErrorCode.protocolVersionNotSupported) {
        const supported = supportedOf(input.data);
        const retry = supported ? untried(supported) : undefined;
        if (retry !== undefined) return next(retry);
        if (!supported && offered === 2) {
          // No list: an agent that rejects 2 without saying what it speaks most likely speaks 1.
          const fallback = untried([1]);
          if (fallback !== undefined) return next(fallback);
        }
        return finish({ type: 'fail', message: mismatch(state, supported ?? [offered === 2 ? 1 : 2]) });
      }
      // A v1-only agent without the SDK's router cannot parse the v2 shape (invalid params/request).
      if (offered === 2 && (input.code === -32602 || input.code === -32600)) {
        const fallback = untried([1]);
        if (fallback !== undefined) return next(fallback);
        return finish({ type: 'fail', message: mismatch(state, [1], input.message) });
      }
      // The agent's own words, as under v1: the caller already says which agent failed to start.
      return finish({ type: 'fail', message: input.message ?? `${state.agent.name} answered initialize with error ${String(input.code)}.` });
    }
    case 'closed': {
      if (offered === 2 && !state.restarted) {
        const fallback = untried([1]);
        if (fallback !== undefined) return next(fallback, true);
        return finish({ type: 'fail', message: mismatch(state, [1], 'it closed the connection when offered version 2') });
      }
      return finish({ type: 'fail', message: `${state.agent.name} closed the connection during initialize (protocol version ${offered}).` });
    }
  }
}

function supportedOf(data: unknown): number[] | null {
  const list = (data as { supported?: unknown } | null | undefined)?.supported;
  if (!Array.isArray(list)) return null;
  const versions = list.filter((v): v is number => typeof v === 'number');
  return versions.length ? versions : null;
}

/** "X speaks ACP protocol version 2; it is set to use version 1. Set its protocol to …". */
function mismatch(state: NegotiationState, agentVersions: readonly number[], why?: string): string {
  const theirs = agentVersions.length === 1 ? `version ${agentVersions[0]}` : `versions ${agentVersions.join(', ')}`;
  const ours = allowedVersions(state.setting);
  const setTo = state.setting === 'auto' ? `"auto" (versions ${ours.join(' and ')})` : `"${state.setting}" (version ${ours[0]})`;
  const usable = agentVersions.filter((v): v is Version => SUPPORTED_VERSIONS.includes(v as Version));
  const where = state.agent.id ? ` (settings.json: agentOverrides["${state.agent.id}"].protocol, or the agent's settings)` : '';
  const advice = usable.length
    ? ` Set its protocol to ${usable.includes(2) && usable.includes(1) ? '"auto"' : `"v${usable[0]}" or "auto"`}${where}.`
    : ' This app speaks versions 1 and 2: update the app or pick another version of the agent.';
  return `${state.agent.name} speaks ACP protocol ${theirs}${why ? ` (${why})` : ''}; it is set to ${setTo}.${advice}`;
}
