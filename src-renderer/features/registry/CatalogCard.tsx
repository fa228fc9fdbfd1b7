import { useState } from 'react';
import type { Catalog, CatalogAgent } from '../../../src-shared/ipc/registryContract';
import { AgentIcon } from '../../ui/AgentIcon';
import { installBlocker, isRunning, progressText } from './format';
import { cancelInstall, installAgent, installRuntime, uninstallAgent, updateAgent } from './actions';
import { useStore } from '../../store';

const DISTRIBUTION_LABEL: Record<string, string> = { binary: 'Binary', npx: 'npm (npx)', uvx: 'Python (uvx)' };

/** One agent of the catalog: what it is, its badges, and install / update / uninstall. */
export function CatalogCard({
  agent,
  catalog,
  isFocused,
  onStartSession,
}: {
  agent: CatalogAgent;
  catalog: Catalog;
  isFocused: boolean;
  onStartSession?: (agentId: string) => void;
}) {
  const live = useStore((s) => s.installProgress[agent.id]);
  const requestError = useStore((s) => s.installErrors[agent.id]);
  const isConfirming = useStore((s) => s.confirmUninstall === agent.id);
  const [kind, setKind] = useState(agent.installableDistributions[0]);
  // The live event is newer than the catalog's snapshot of the operation.
  const progress = live ?? agent.busy ?? null;
  const isBusy = isRunning(progress);
  const blocker = installBlocker(agent, catalog, kind);
  const error = requestError ?? (isBusy ? null : agent.lastError);
  const nameId = `catalog-${agent.id}-name`;
  const canDownload = progress?.phase === 'downloading' && progress.bytes > 0;

  return (
    <li className={`catalog-card${isFocused ? ' focused' : ''}`} aria-labelledby={nameId} data-agent-id={agent.id}>
      <AgentIcon name={agent.name} svg={agent.icon} />
      <div className="catalog-main">
        <div className="catalog-title">
          <h3 id={nameId}>{agent.name}</h3>
          <span className="muted small">{agent.version}</span>
          {agent.installed && (
            <span
              className="catalog-badge installed"
              title={
                agent.installed.packageVersion
                  ? `The catalog's ${agent.installed.version} is no longer on npm: ${agent.installed.packageVersion} was installed. ${agent.installed.path}`
                  : agent.installed.path
              }
            >
              Installed {agent.installed.packageVersion ?? agent.installed.version}
            </span>
          )}
          {agent.updateAvailable && <span className="catalog-badge update">Update available</span>}
          {!agent.availableForPlatform && <span className="catalog-badge unavailable">Not available for {catalog.target ?? 'this platform'}</span>}
          {!agent.inRegistry && <span className="catalog-badge unavailable">No longer in the registry</span>}
        </div>
        <p className="catalog-description">{agent.description}</p>
        <p className="small muted catalog-meta">
          {agent.authors.length > 0 && <span>By {agent.authors.join(', ')}</span>}
          {agent.license && <span>License: {agent.license}</span>}
          {agent.repository && (
            <a href={agent.repository} target="_blank" rel="noreferrer noopener">
              Repository
            </a>
          )}
          <span className="catalog-distributions" aria-label="Distributions">
            {agent.distributions.map((distribution) => (
              <span key={distribution} className="badge-neutral">
                {DISTRIBUTION_LABEL[distribution] ?? distribution}
              </span>
            ))}
          </span>
        </p>
        {!agent.installed && blocker && agent.availableForPlatform && <p className="small catalog-blocker">{blocker}</p>}
        {/* A failure is said once, by the alert below (its text is also the last progress message). */}
        {progress && (isBusy || (progress.phase !== 'done' && !(progress.phase === 'failed' && error))) && (
          <div className="catalog-progress">
            {isBusy &&
              (canDownload && progress.total ? (
                <progress aria-label={`${agent.name} download`} value={progress.bytes} max={progress.total} />
              ) : (
                <progress aria-label={`${agent.name} progress`} />
              ))}
            <span role="status" className="small">
              {progressText(progress)}
            </span>
            {isBusy && progress.action !== 'uninstall' && (
              <button type="button" onClick={() => void cancelInstall(agent.id)}>
                Cancel
              </button>
            )}
          </div>
        )}
        {error && (
          <p role="alert" className="error small catalog-error">
            {error}
          </p>
        )}
        {error && !isBusy && agent.lastErrorReason === 'engines' && (
          <div className="catalog-confirm" role="group" aria-label={`${agent.name} needs a newer Node.js`}>
            <button type="button" onClick={() => void installAgent(agent.id, kind, true)}>
              Install anyway
            </button>
            <button type="button" onClick={() => void installRuntime('node').then(() => installAgent(agent.id, kind))}>
              Download Node.js for the app, then install
            </button>
          </div>
        )}
        {isConfirming && (
          <div className="catalog-confirm" role="group" aria-label={`Uninstall ${agent.name}?`}>
            <span className="small">Remove {agent.name}, its files and its saved secrets?</span>
            <button type="button" className="danger" onClick={() => void uninstallAgent(agent.id)}>
              Uninstall
            </button>
            <button type="button" onClick={() => useStore.getState().setConfirmUninstall(null)}>
              Keep
            </button>
          </div>
        )}
      </div>
      <div className="catalog-actions">
        {!agent.installed && agent.installableDistributions.length > 1 && (
          <select aria-label={`How to install ${agent.name}`} value={kind} onChange={(event) => setKind(event.target.value as typeof kind)} disabled={isBusy}>
            {agent.installableDistributions.map((distribution) => (
              <option key={distribution} value={distribution}>
                {DISTRIBUTION_LABEL[distribution] ?? distribution}
              </option>
            ))}
          </select>
        )}
        {!agent.installed && agent.inRegistry && (
          <button
            type="button"
            className="primary"
            disabled={isBusy || Boolean(blocker)}
            title={blocker ?? undefined}
            aria-label={`Install ${agent.name}`}
            onClick={() => void installAgent(agent.id, kind)}
          >
            Install
          </button>
        )}
        {agent.installed && agent.updateAvailable && (
          <button
            type="button"
            className="primary"
            disabled={isBusy}
            aria-label={`Update ${agent.name} to ${agent.version}`}
            onClick={() => void updateAgent(agent.id)}
          >
            Update to {agent.version}
          </button>
        )}
        {agent.installed && onStartSession && (
          <button type="button" disabled={isBusy} aria-label={`Start a session with ${agent.name}`} onClick={() => onStartSession(agent.id)}>
            Start session
          </button>
        )}
        {agent.installed && (
          <button
            type="button"
            disabled={isBusy || isConfirming}
            aria-label={`Uninstall ${agent.name}`}
            onClick={() => useStore.getState().setConfirmUninstall(agent.id)}
          >
            Uninstall
          </button>
        )}
      </div>
    </li>
  );
}
