import { useId, useState, type FormEvent } from 'react';
import { checkRemoteUrl } from '../../../src-shared/remote';
import { addRemoteAgent } from './actions';

function idFrom(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 100) || 'remote-agent'
  );
}

/**
 * "Add a remote agent": an agent reached over ACP's WebSocket or Streamable HTTP transport
 * (for example `acp-desktop agent-server` on another machine). The token is kept like other
 * secrets; this computer's files and terminals are not offered unless turned on here.
 */
export function AddRemoteAgent({ onAdded }: { onAdded: () => void }) {
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [token, setToken] = useState('');
  const [headerName, setHeaderName] = useState('');
  const [headerValue, setHeaderValue] = useState('');
  const [headerSecret, setHeaderSecret] = useState(true);
  const [allowInsecure, setAllowInsecure] = useState(false);
  const [clientFs, setClientFs] = useState(false);
  const [clientTerminal, setClientTerminal] = useState(false);
  const [status, setStatus] = useState('');
  const headingId = useId();
  const check = url.trim() ? checkRemoteUrl(url.trim(), allowInsecure) : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!check?.ok || !name.trim()) return;
    const headers = [
      ...(token ? [{ name: 'Authorization', value: `Bearer ${token}`, secret: true }] : []),
      ...(headerName.trim() ? [{ name: headerName.trim(), value: headerValue, secret: headerSecret }] : []),
    ];
    const answer = await addRemoteAgent({ id: idFrom(name), name: name.trim(), url: url.trim(), headers, allowInsecure, clientFs, clientTerminal });
    if (!answer) return;
    setStatus(`Added ${name.trim()}.${answer.warning ? ` Warning: ${answer.warning}` : ''}`);
    setName('');
    setUrl('');
    setToken('');
    setHeaderName('');
    setHeaderValue('');
    onAdded();
  };

  return (
    <section className="settings-section" aria-labelledby={headingId}>
      <h2 id={headingId}>Add a remote agent</h2>
      <p className="muted small">
        An agent on another machine, reached over ACP's WebSocket or Streamable HTTP transport (for example <code>acp-desktop agent-server</code>, see
        docs/REMOTE.md). It works with the files and commands of that machine.
      </p>
      <form className="remote-form" onSubmit={submit}>
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
        </label>
        <label>
          URL
          <input value={url} onChange={(e) => setUrl(e.target.value)} placeholder="wss://dev-box.example/acp" required inputMode="url" />
        </label>
        <label>
          Access token (sent as “Authorization: Bearer …”, kept secret)
          <input type="password" value={token} onChange={(e) => setToken(e.target.value)} autoComplete="off" />
        </label>
        <fieldset>
          <legend>Another header (optional)</legend>
          <label>
            Header name
            <input value={headerName} onChange={(e) => setHeaderName(e.target.value)} />
          </label>
          <label>
            Header value
            <input type={headerSecret ? 'password' : 'text'} value={headerValue} onChange={(e) => setHeaderValue(e.target.value)} autoComplete="off" />
          </label>
          <label className="field-inline">
            <input type="checkbox" checked={headerSecret} onChange={(e) => setHeaderSecret(e.target.checked)} /> Keep this value secret
          </label>
        </fieldset>
        <label className="field-inline">
          <input type="checkbox" checked={clientFs} onChange={(e) => setClientFs(e.target.checked)} /> Offer this computer's files to the agent
        </label>
        <label className="field-inline">
          <input type="checkbox" checked={clientTerminal} onChange={(e) => setClientTerminal(e.target.checked)} /> Offer this computer's terminals to the agent
        </label>
        <label className="field-inline">
          <input type="checkbox" checked={allowInsecure} onChange={(e) => setAllowInsecure(e.target.checked)} /> Allow an unencrypted connection (ws:// or
          http:// to another machine)
        </label>
        {check && !check.ok && (
          <p role="alert" className="form-error">
            {check.error}
          </p>
        )}
        {check?.ok && check.warning && (
          <p role="note" className="small warning">
            {check.warning}
          </p>
        )}
        <button type="submit" disabled={!check?.ok || !name.trim()}>
          Add remote agent
        </button>
        {status && (
          <p role="status" className="small">
            {status}
          </p>
        )}
      </form>
    </section>
  );
}
