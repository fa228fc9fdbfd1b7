import { useMemo } from 'react';
import { gatedControls } from '../../../src-shared/acp/gatedControls';
import { useStore } from '../../store';
import './gatedControls.css';

/** "Why is this control missing?": each capability-gated control, what enables it, and whether this agent advertised it. */
export function GatedControlsSection({ sessionId }: { sessionId: string }) {
  const agentId = useStore((s) => s.sessions[sessionId]?.agentId);
  const agent = useStore((s) => s.app?.agents.find((a) => a.id === agentId));
  const modes = useStore((s) => Boolean(s.sessions[sessionId]?.modes?.availableModes.length));
  const configOptions = useStore((s) => s.sessions[sessionId]?.configOptions);
  const rows = useMemo(
    () =>
      gatedControls({
        capabilities: agent?.capabilities,
        protocolVersion: agent?.protocolVersion,
        known: agent?.capabilities !== undefined && agent?.capabilities !== null,
        session: { modes, configOptions: configOptions ?? [] },
      }),
    [agent?.capabilities, agent?.protocolVersion, modes, configOptions],
  );
  return (
    <section aria-labelledby="info-gated">
      <h3 id="info-gated">Why is a control missing?</h3>
      <table className="gated-controls" aria-labelledby="info-gated">
        <thead>
          <tr>
            <th scope="col">Control</th>
            <th scope="col">Needs</th>
            <th scope="col">This agent</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.control} className={row.available ? 'on' : 'off'}>
              <th scope="row">{row.control}</th>
              <td>
                <code>{row.capability}</code>
              </td>
              <td>
                {row.available ? 'yes' : 'no'}
                {row.note ? <span className="muted small"> ({row.note})</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
