import { pathInside } from '../store/dataPath';
import { logDebug } from '../log/mainLog';
import { RotatingFile } from '../log/rotatingFile';

/** Each agent's log: 1 MB and two rotated files at most, so a flood of stderr costs at most 3 MB on disk. */
const AGENT_LOG = { maxBytes: 1024 * 1024, keep: 2 };

/**
 * Where an agent's stderr is kept in full: `<data>/logs/agents/<agentId>.log` (rotated), one
 * per agent whatever the number of its sessions. Session logs keep only an excerpt and this
 * file's path (`agent.exited`).
 */
export class AgentLogs {
  private files = new Map<string, RotatingFile>();
  private failed = new Set<string>();

  constructor(private readonly dir: string) {}

  file(agentId: string): string {
    return pathInside(this.dir, `${agentId}.log`);
  }

  /** Appends text as the agent printed it. A log that cannot be written is given up on, once logged. */
  write(agentId: string, text: string): void {
    if (this.failed.has(agentId)) return;
    try {
      let file = this.files.get(agentId);
      if (!file) this.files.set(agentId, (file = new RotatingFile(this.file(agentId), AGENT_LOG)));
      file.append(text);
    } catch (error) {
      this.failed.add(agentId);
      logDebug(`Writing the log of agent ${agentId} (its stderr is still shown in its sessions)`, error);
    }
  }

  /** A line of the app's own about the agent (started, exited), on a line of its own. */
  note(agentId: string, text: string): void {
    this.write(agentId, `\n--- ${new Date().toISOString()} ${text}\n`);
  }
}
