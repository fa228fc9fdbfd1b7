import { useEffect, useId, useState } from 'react';
import { useStore } from '../../store';
import { forgetPermission, listRememberedPermissions, readSettings, writeSettings } from './actions';
import { applyPreferences } from './preferences';
import { AgentProtocolSection } from './AgentProtocolSection';
import { AddRemoteAgent } from '../remote/AddRemoteAgent';
import { jsonObjectSchema, parseJson } from '../../../src-shared/json';
import { withAgentProtocol, type ProtocolSetting } from '../../../src-shared/settings';

type Remembered = { key: string; agentId: string; toolKind: string; optionKind: string };

const OPTION_KINDS: Record<string, string> = {
  allow_always: 'Always allow',
  reject_always: 'Always reject',
  allow_once: 'Allow',
  reject_once: 'Reject',
};

/** settings.json (edited as text, validated by main) and the remembered permission choices. */
export function SettingsPage() {
  const [path, setPath] = useState('');
  const [text, setText] = useState<string | null>(null);
  const [saved, setSaved] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [remembered, setRemembered] = useState<Remembered[] | null>(null);
  const agents = useStore((s) => s.app?.agents);
  const theme = useStore((s) => s.theme);
  const editorId = useId();

  const load = async () => {
    const result = await readSettings();
    if (result) {
      setPath(result.path);
      setText(result.text);
      setSaved(result.text);
      setError(result.error);
    }
    const list = await listRememberedPermissions();
    if (list) setRemembered(list.items);
  };
  useEffect(() => {
    void load();
  }, []);

  const save = async (next: string) => {
    setStatus('');
    const result = await writeSettings(next);
    if (!result) return;
    setError(result.error);
    if (!result.error) {
      setSaved(next);
      setText(next);
      setStatus('Saved.');
      applyPreferences(next);
      const list = await listRememberedPermissions();
      if (list) setRemembered(list.items);
    }
  };

  const setTheme = (value: string) => {
    const base = text ?? '{}';
    try {
      void save(JSON.stringify({ ...jsonObjectSchema.parse(parseJson(base)), theme: value }, null, 2));
    } catch {
      setError('Fix the JSON below before changing the theme here.');
    }
  };

  const setProtocol = (agentId: string, value: ProtocolSetting) => {
    try {
      void save(JSON.stringify(withAgentProtocol(jsonObjectSchema.parse(parseJson(saved || '{}')), agentId, value), null, 2));
    } catch {
      setError('Fix the JSON below before changing an agent’s protocol here.');
    }
  };

  const agentName = (id: string) => agents?.find((a) => a.id === id)?.name ?? id;
  const dirty = text !== null && text !== saved;

  return (
    <section className="settings-page" aria-labelledby="settings-heading">
      <header className="page-header">
        <h1 id="settings-heading">Settings</h1>
        <button type="button" onClick={() => useStore.getState().setView('session')}>
          Close settings
        </button>
      </header>
      <div className="settings-body">
        <section className="settings-section" aria-labelledby="appearance-heading">
          <h2 id="appearance-heading">Appearance</h2>
          <label className="field-inline">
            Theme
            <select value={theme} onChange={(event) => setTheme(event.target.value)}>
              <option value="system">Follow the system</option>
              <option value="light">Light</option>
              <option value="dark">Dark</option>
            </select>
          </label>
        </section>

        <AddRemoteAgent onAdded={() => void load()} />

        <AgentProtocolSection text={saved === '' && text === null ? null : saved} agents={agents ?? []} onChange={setProtocol} />

        <section className="settings-section" aria-labelledby="remembered-heading">
          <h2 id="remembered-heading">Remembered permissions</h2>
          <p className="muted small">Choices you made with “always”. Forget one and the agent asks again next time.</p>
          {remembered === null ? (
            <p className="muted">Loading…</p>
          ) : remembered.length === 0 ? (
            <p className="muted">No remembered choices.</p>
          ) : (
            <ul className="remembered-list" aria-label="Remembered permission choices">
              {remembered.map((item) => {
                const label = `${agentName(item.agentId)} · ${item.toolKind || 'any tool'} · ${OPTION_KINDS[item.optionKind] ?? item.optionKind}`;
                return (
                  <li key={item.key}>
                    <span>{label}</span>
                    <button
                      type="button"
                      aria-label={`Forget ${label}`}
                      onClick={async () => {
                        await forgetPermission(item.key);
                        await load();
                      }}
                    >
                      Forget
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </section>

        <section className="settings-section" aria-labelledby="json-heading">
          <h2 id="json-heading">settings.json</h2>
          <p className="muted small">
            <code>{path}</code> — custom agents, per-agent overrides, MCP servers, theme. Checked before it is saved.
          </p>
          {error && (
            <div role="alert" className="form-error">
              {error}
            </div>
          )}
          <label htmlFor={editorId} className="visually-hidden">
            settings.json
          </label>
          <textarea
            id={editorId}
            className="settings-editor"
            spellCheck={false}
            value={text ?? ''}
            rows={18}
            onChange={(event) => {
              setText(event.target.value);
              setStatus('');
            }}
            onKeyDown={(event) => {
              if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
                event.preventDefault();
                if (text !== null) void save(text);
              }
            }}
          />
          <div className="form-actions">
            <span role="status" className="muted small">
              {status || (dirty ? 'Unsaved changes' : '')}
            </span>
            <button type="button" disabled={!dirty} onClick={() => setText(saved)}>
              Revert
            </button>
            <button type="button" className="primary" disabled={text === null || !dirty} onClick={() => text !== null && void save(text)}>
              Save settings
            </button>
          </div>
        </section>
      </div>
    </section>
  );
}
