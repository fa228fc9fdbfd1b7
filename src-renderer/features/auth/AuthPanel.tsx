import { useState, type FormEvent } from 'react';
import { KNOWN_AUTH_METHOD_TYPES, isKnown } from '../../../src-shared/acp/known';
import type { AuthMethodInfo } from '../../../src-shared/session/events';
import { useStore } from '../../store';
import { startSignIn } from './actions';
import { UnknownBox } from '../../ui/UnknownBox';
import { TerminalView } from '../terminal/TerminalView';
import './auth.css';

/**
 * Sign-in, shown in the session while the agent waits for it (`state.authMethods`): one
 * button per method the agent offers. `env_var` asks for each variable (password inputs for
 * secrets); `terminal` runs the agent's sign-in in an interactive terminal right here; types
 * this app does not know are listed with their raw JSON and cannot be started.
 */
export function AuthPanel({ sessionId }: { sessionId: string }) {
  const methods = useStore((s) => s.sessions[sessionId]?.authMethods ?? null);
  const agentId = useStore((s) => s.sessions[sessionId]?.agentId);
  const agentName = useStore((s) => s.sessions[sessionId]?.agentName || 'The agent');
  const signIn = useStore((s) => s.app?.agents.find((a) => a.id === agentId)?.signIn);
  const terminalId = useStore((s) => {
    const terminals = Object.values(s.sessions[sessionId]?.terminals ?? {}).filter((t) => t.interactive && !t.released);
    return terminals.at(-1)?.terminalId ?? null;
  });
  const [busy, setBusy] = useState<string | null>(null);
  const [openForm, setOpenForm] = useState<string | null>(null);
  const [shownTerminal, setShownTerminal] = useState<string | null>(null);
  // The agent's reason for the last failed sign-in, shown here where the person is looking
  // (a sign-in that failed and brought back the same panel looked like a silent loop).
  const [failure, setFailure] = useState<string | null>(null);
  if (!methods) return null;

  const start = async (methodId: string, env?: Record<string, string>) => {
    setBusy(methodId);
    setFailure(null);
    try {
      const result = await startSignIn(sessionId, methodId, env);
      if (result?.terminalId) setShownTerminal(result.terminalId);
      return result;
    } catch (error) {
      const name = methods.find((m) => m.id === methodId)?.name ?? methodId;
      setFailure(`Sign-in with “${name}” failed: ${(error as Error).message}`);
      return undefined;
    } finally {
      setBusy(null);
    }
  };
  const terminal = shownTerminal ?? terminalId;

  return (
    <section className="auth-panel" role="region" aria-label={`Sign in to ${agentName}`}>
      <h2 className="auth-title">Sign in to {agentName}</h2>
      {methods.length === 0 ? (
        <p className="muted">{agentName} asks you to sign in but offers no sign-in method. Check its documentation, then restart it.</p>
      ) : (
        <p className="muted small">{agentName} needs you to sign in before it can go on. What you were doing continues afterwards.</p>
      )}
      {failure && (
        <p className="auth-failure" role="alert">
          {failure}
        </p>
      )}
      <ul className="auth-methods">
        {methods.map((method) => (
          <li key={method.id} className="auth-method">
            {!isKnown(KNOWN_AUTH_METHOD_TYPES, method.type) ? (
              <div className="auth-unsupported">
                <span>
                  <strong>{method.name}</strong> — a sign-in method of type “{method.type}” that this app cannot use yet.
                </span>
                <UnknownBox label={`Auth method ${method.type}`} raw={method.raw} />
              </div>
            ) : (
              <>
                <button
                  type="button"
                  disabled={busy !== null}
                  aria-expanded={method.type === 'env_var' ? openForm === method.id : undefined}
                  onClick={() => {
                    if (method.type === 'env_var') setOpenForm(openForm === method.id ? null : method.id);
                    else void start(method.id);
                  }}
                >
                  {busy === method.id ? 'Signing in…' : method.name}
                </button>
                {method.description && <span className="muted small auth-description">{method.description}</span>}
                {method.type === 'terminal' && <span className="muted small auth-description">Opens a terminal below to sign in.</span>}
                {method.type === 'env_var' && openForm === method.id && (
                  <EnvForm
                    method={method}
                    stored={signIn?.storedEnv ?? []}
                    storage={signIn?.secretsDescription}
                    busy={busy === method.id}
                    onSubmit={(env) => void start(method.id, env)}
                  />
                )}
              </>
            )}
          </li>
        ))}
      </ul>
      {terminal && (
        <div className="auth-terminal">
          <p className="small">Follow the instructions in the terminal. When it finishes successfully, {agentName} continues.</p>
          <TerminalView sessionId={sessionId} terminalId={terminal} interactive rows={12} />
        </div>
      )}
    </section>
  );
}

function EnvForm({
  method,
  stored,
  storage,
  busy,
  onSubmit,
}: {
  method: AuthMethodInfo;
  stored: string[];
  storage?: string;
  busy: boolean;
  onSubmit: (env: Record<string, string>) => void;
}) {
  const vars = method.vars ?? [];
  const [values, setValues] = useState<Record<string, string>>({});
  const link = method.link ?? null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const env = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ''));
    onSubmit(env);
  };
  return (
    <form className="auth-env-form" aria-label={method.name} onSubmit={submit}>
      {vars.map((v) => {
        const isStored = stored.includes(v.name);
        return (
          <label key={v.name} className="auth-field">
            <span>
              {v.label}
              {v.optional ? <span className="muted"> (optional)</span> : null}
            </span>
            <input
              type={v.secret ? 'password' : 'text'}
              name={v.name}
              autoComplete="off"
              spellCheck={false}
              required={!v.optional && !isStored}
              placeholder={isStored ? 'Stored — leave empty to keep' : v.name}
              value={values[v.name] ?? ''}
              onChange={(event) => setValues({ ...values, [v.name]: event.target.value })}
            />
          </label>
        );
      })}
      <div className="auth-form-actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Save and sign in'}
        </button>
        {link && (
          <a href={link} target="_blank" rel="noreferrer noopener">
            Where do I get this?
          </a>
        )}
      </div>
      {storage && <p className="muted small">Secret values are {storage}. The agent restarts with them.</p>}
    </form>
  );
}
