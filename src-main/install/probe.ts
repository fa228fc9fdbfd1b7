import { type ClientSide } from '../acp/clientSide';
import { UserError } from '../errors/errors';
import type { ProtocolSetting } from '../../src-shared/settings';
import type { LaunchSpec } from '../process/agentProcess';

/** A client side that serves nothing: a probe only runs `initialize`. */
const refuseAll = async (): Promise<never> => {
  throw new UserError('This connection only checks that the agent starts.');
};

const PROBE_CLIENT: ClientSide = {
  onSessionUpdate: () => {},
  requestPermission: refuseAll,
  readTextFile: refuseAll,
  writeTextFile: refuseAll,
  createTerminal: refuseAll,
  terminalOutput: refuseAll,
  waitForTerminalExit: refuseAll,
  killTerminal: refuseAll,
  releaseTerminal: refuseAll,
  createElicitation: refuseAll,
  completeElicitation: () => {},
  onGarbage: () => {},
};

/**
 * Starts an agent, asks `initialize` and stops it: proof that an installed version works
 * before the app switches to it. Throws with the agent's last stderr lines when it fails.
 */
export async function probeAgent(
  launch: LaunchSpec,
  timeoutMs: number,
  protocol: ProtocolSetting = 'v1',
): Promise<{ protocolVersion: number; agentName: string | null }> {
  // Loaded here, not with the core: the ACP SDK is not needed before an agent starts (issue 23).
  const { AgentConnection } = await import('../acp/agentConnection');
  const connection = new AgentConnection(launch, PROBE_CLIENT, undefined, undefined, { protocol });
  try {
    const result = await connection.initialize(timeoutMs);
    const info = result.agentInfo as { name?: string } | undefined;
    return { protocolVersion: connection.protocolVersion ?? result.protocolVersion, agentName: info?.name ?? null };
  } catch (error) {
    const tail = connection.process.stderr.tail(5).join('\n').trim();
    throw new Error(`${(error as Error).message}${tail ? `\n${tail}` : ''}`);
  } finally {
    await connection.stop();
  }
}
