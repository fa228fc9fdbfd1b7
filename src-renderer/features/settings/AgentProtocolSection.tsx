import { parseSettings, PROTOCOL_SETTINGS, protocolFor, type ProtocolSetting } from '../../../src-shared/settings';
import type { AgentSummary } from '../../../src-shared/ipc/appState';

const LABELS: Record<ProtocolSetting, string> = {
  v1: 'ACP v1',
  auto: 'Automatic (v2 when the agent speaks it, else v1)',
  v2: 'ACP v2 only',
};

/**
 * Which ACP protocol version the app speaks with each agent (its `protocol` in settings.json).
 * The choice applies the next time the agent starts.
 */
export function AgentProtocolSection({
  text,
  agents,
  onChange,
}: {
  text: string | null;
  agents: AgentSummary[];
  onChange: (agentId: string, value: ProtocolSetting) => void;
}) {
  const settings = text === null ? null : parseSettings(text).settings;
  const runnable = agents.filter((agent) => agent.runnable);
  return (
    <section className="settings-section" aria-labelledby="protocol-heading">
      <h2 id="protocol-heading">Agent protocol</h2>
      <p className="muted small">
        The ACP version to speak with each agent. Version 2 is a draft; “Automatic” offers it and falls back to version 1. A change applies the next time the
        agent starts (Restart the agent to apply it now).
      </p>
      {runnable.length === 0 ? (
        <p className="muted">No installed agents.</p>
      ) : (
        <ul className="protocol-list">
          {runnable.map((agent) => (
            <li key={agent.id}>
              <label className="field-inline">
                {agent.name}
                <select
                  aria-label={`Protocol for ${agent.name}`}
                  value={settings ? protocolFor(settings, agent.id) : 'v1'}
                  disabled={settings === null}
                  onChange={(event) => onChange(agent.id, event.target.value as ProtocolSetting)}
                >
                  {PROTOCOL_SETTINGS.map((value) => (
                    <option key={value} value={value}>
                      {LABELS[value]}
                    </option>
                  ))}
                </select>
              </label>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
