import { useEffect, useMemo, useRef } from 'react';
import type { Catalog } from '../../../src-shared/ipc/registryContract';
import { CatalogCard } from './CatalogCard';
import type { CatalogShow } from '../../store/types';
import { filterAgents, isRunning, progressText, sourceLabel } from './format';
import { cancelInstall, closeCatalog, installRuntime, openCatalog, refreshCatalog } from './actions';
import { useStore } from '../../store';
import './registry.css';

/**
 * The agent catalog of the ACP registry, as a modal dialog. Mount it once in the app; it opens
 * with `openCatalog()` or an `acp:install-agent` window event (menu item, deep link).
 * `onStartSession` is called for an installed agent's "Start session" button.
 */
export function RegistryCatalog({ onStartSession }: { onStartSession?: (agentId: string) => void }) {
  const isOpen = useStore((s) => s.catalogOpen);

  useEffect(() => {
    const onInstallAgent = (event: Event) => openCatalog((event as CustomEvent<{ agentId?: string }>).detail?.agentId ?? null);
    window.addEventListener('acp:install-agent', onInstallAgent);
    return () => window.removeEventListener('acp:install-agent', onInstallAgent);
  }, []);

  if (!isOpen) return null;
  return (
    <CatalogDialog
      onStartSession={
        onStartSession &&
        ((agentId) => {
          closeCatalog();
          onStartSession(agentId);
        })
      }
    />
  );
}

function CatalogDialog({ onStartSession }: { onStartSession?: (agentId: string) => void }) {
  const catalog = useStore((s) => s.catalog);
  const error = useStore((s) => s.catalogError);
  const isRefreshing = useStore((s) => s.catalogRefreshing);
  const filter = useStore((s) => s.catalogFilter);
  const focusAgentId = useStore((s) => s.catalogFocus);
  const dialog = useRef<HTMLDialogElement>(null);
  const agents = useMemo(() => (catalog ? filterAgents(catalog.agents, filter) : []), [catalog, filter]);
  const setFilter = useStore.getState().setCatalogFilter;

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  useEffect(() => {
    if (!focusAgentId || !catalog) return;
    dialog.current?.querySelector(`[data-agent-id="${CSS.escape(focusAgentId)}"]`)?.scrollIntoView({ block: 'center' });
  }, [focusAgentId, catalog]);

  const focusMissing = Boolean(focusAgentId && catalog && !catalog.agents.some((agent) => agent.id === focusAgentId));

  return (
    <dialog ref={dialog} className="dialog registry-catalog" aria-labelledby="catalog-title" onClose={closeCatalog}>
      <header className="catalog-header">
        <h2 id="catalog-title">Agent catalog</h2>
        <button type="button" className="catalog-close" aria-label="Close the catalog" onClick={closeCatalog}>
          ×
        </button>
      </header>
      {catalog && (
        <div className={`catalog-source source-${catalog.source}`} role="status">
          <span>{sourceLabel(catalog)}</span>
          <button type="button" disabled={isRefreshing} onClick={() => void refreshCatalog()}>
            {isRefreshing ? 'Refreshing…' : 'Refresh'}
          </button>
        </div>
      )}
      {catalog?.error && (
        <p className="catalog-warning small" role="alert">
          {catalog.error}
        </p>
      )}
      {error && (
        <p className="error small" role="alert">
          {error}
        </p>
      )}
      {catalog && catalog.warnings.length > 0 && (
        <details className="small muted">
          <summary>{catalog.warnings.length} malformed entries were skipped</summary>
          <ul>
            {catalog.warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        </details>
      )}
      {catalog && <RuntimeNotice catalog={catalog} runtime="node" />}
      {catalog && <RuntimeNotice catalog={catalog} runtime="uv" />}
      {focusMissing && <p className="catalog-warning small">The registry has no agent “{focusAgentId}”.</p>}
      <div className="catalog-filters" role="search">
        <input
          type="search"
          aria-label="Search agents"
          placeholder="Search agents"
          value={filter.query}
          onChange={(event) => setFilter({ query: event.target.value })}
        />
        <select aria-label="Show" value={filter.show} onChange={(event) => setFilter({ show: event.target.value as CatalogShow })}>
          <option value="all">All agents</option>
          <option value="installed">Installed</option>
          <option value="updates">Updates available</option>
          <option value="available">Available for this platform</option>
        </select>
        <select
          aria-label="Distribution"
          value={filter.distribution}
          onChange={(event) => setFilter({ distribution: event.target.value as typeof filter.distribution })}
        >
          <option value="any">Any distribution</option>
          <option value="binary">Binary</option>
          <option value="npx">npm (npx)</option>
          <option value="uvx">Python (uvx)</option>
        </select>
      </div>
      {!catalog && !error && <p className="muted">Loading the catalog…</p>}
      {catalog && (
        <>
          <p className="small muted catalog-count" aria-live="polite">
            {agents.length === catalog.agents.length ? `${agents.length} agents` : `${agents.length} of ${catalog.agents.length} agents`}
            {' · '}installed in <code>{catalog.agentsDir}</code>
          </p>
          <ul className="catalog-list" aria-label="Agents in the registry">
            {agents.map((agent) => (
              <CatalogCard key={agent.id} agent={agent} catalog={catalog} isFocused={agent.id === focusAgentId} onStartSession={onStartSession} />
            ))}
          </ul>
          {agents.length === 0 && <p className="muted">No agent matches.</p>}
        </>
      )}
    </dialog>
  );
}

const RUNTIME_LABEL = { node: 'Node.js', uv: 'uv' } as const;

/** A missing runtime (for npx or uvx agents), with the offer to download the official build. */
function RuntimeNotice({ catalog, runtime }: { catalog: Catalog; runtime: 'node' | 'uv' }) {
  const id = `@${runtime}`;
  const info = catalog.runtimes[runtime];
  const live = useStore((s) => s.installProgress[id]);
  const error = useStore((s) => s.installErrors[id]);
  const needed = catalog.agents.some((agent) => agent.installableDistributions.includes(runtime === 'node' ? 'npx' : 'uvx'));
  const progress = live ?? info.busy;
  const isBusy = isRunning(progress);
  if ((info.ok && !isBusy) || !needed) return null;
  const label = RUNTIME_LABEL[runtime];
  return (
    <div className="catalog-runtime" role="group" aria-label={`${label} for ${runtime === 'node' ? 'npm' : 'Python'} agents`}>
      <p className="small">{info.message}</p>
      {info.canDownload && (
        <div className="catalog-progress">
          <button type="button" disabled={isBusy} onClick={() => void installRuntime(runtime)}>
            Download {label} into the app’s folder
          </button>
          {isBusy && progress && (
            <>
              {progress.phase === 'downloading' && progress.total ? (
                <progress aria-label={`${label} download`} value={progress.bytes} max={progress.total} />
              ) : (
                <progress aria-label={`${label} progress`} />
              )}
              <span role="status" className="small">
                {progressText(progress)}
              </span>
              <button type="button" onClick={() => void cancelInstall(id)}>
                Cancel
              </button>
            </>
          )}
        </div>
      )}
      {error && (
        <p role="alert" className="error small">
          {error}
        </p>
      )}
    </div>
  );
}
