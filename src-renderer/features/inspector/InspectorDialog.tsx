import { useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { TrafficRecording } from '../../../src-shared/ipc/inspectorContract';
import { filterRows, pairRows, toJsonl, type Pairing, type TrafficFilter, type TrafficRow } from '../../../src-shared/inspector/traffic';
import { bridge } from '../../bridge';
import { useStore } from '../../store';
import { Icon } from '../../ui/Icon';
import { downloadText } from '../history';
import { fetchRecorded, fetchTraffic, setRecording, subscribeTraffic } from './actions';
import { closeInspector, useInspector, type InspectorTarget } from './inspectorState';
import { JsonTree } from './JsonTree';
import { parseJson } from '../../../src-shared/json';
import './inspector.css';

/** Rows the page keeps per open inspector (main's ring buffer holds the same bound). */
const KEEP = 5000;
/** Rows drawn at once; earlier ones on request (a flood must not draw thousands of rows a frame). */
const PAGE = 150;
/**
 * Live rows are shown at most this often: main sends them every 250 ms, and during a flood each
 * batch replaces every drawn row (a 100,000-chunk stream made one long layout task per batch).
 */
const LIVE_MS = 1000;

/** The protocol inspector, when open. */
export function InspectorHost() {
  const target = useInspector((s) => s.target);
  if (!target) return null;
  return <InspectorDialog key={`${target.agentId}:${target.acpSessionId ?? ''}:${target.until ?? ''}`} target={target} />;
}

function InspectorDialog({ target }: { target: InspectorTarget }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const agentName = useStore((s) => s.app?.agents.find((agent) => agent.id === target.agentId)?.name ?? target.agentId);
  const sessions = useStore(
    useShallow((s) =>
      Object.values(s.sessions)
        .filter((session) => session.agentId === target.agentId && session.acpSessionId)
        .map((session) => `${session.acpSessionId}\u0000${session.title || session.cwd}`),
    ),
  );
  const [rows, setRows] = useState<TrafficRow[]>([]);
  const [held, setHeld] = useState<TrafficRow[]>([]);
  const [paused, setPaused] = useState(false);
  const [skipped, setSkipped] = useState(0);
  const [dropped, setDropped] = useState(0);
  const [recording, setRecordingState] = useState<TrafficRecording | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [shown, setShown] = useState(PAGE);
  const [filter, setFilter] = useState<TrafficFilter>({ sessionIds: target.acpSessionId ? [target.acpSessionId] : [], dir: 'both', until: target.until });
  const pausedRef = useRef(paused);
  pausedRef.current = paused;

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    let live = true;
    // Subscribed first, then the window: rows in between arrive live (duplicates are dropped by seq).
    let incoming: TrafficRow[] = [];
    let skippedSince = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const show = () => {
      timer = null;
      const batch = incoming;
      const skippedNow = skippedSince;
      incoming = [];
      skippedSince = 0;
      if (skippedNow) setSkipped((count) => count + skippedNow);
      if (pausedRef.current) setHeld((list) => [...list, ...batch].slice(-KEEP));
      else setRows((list) => merge(list, batch));
    };
    const off = bridge.on('inspector.traffic', (payload) => {
      if (!live || payload.agentId !== target.agentId) return;
      incoming = incoming.concat(payload.rows).slice(-KEEP);
      skippedSince += payload.skipped;
      timer ??= setTimeout(show, LIVE_MS);
    });
    void subscribeTraffic(target.agentId, true).then(async () => {
      const window = await fetchTraffic(target.agentId);
      if (!live || !window) return;
      setRows((list) => merge(window.rows, list));
      setDropped(window.dropped);
      setRecordingState(window.recording);
    });
    // Main forgets a page that stops renewing (closed without unmounting): renewed well within its lease.
    const renew = setInterval(() => void subscribeTraffic(target.agentId, true), 20_000);
    return () => {
      live = false;
      clearInterval(renew);
      if (timer) clearTimeout(timer);
      off();
      void subscribeTraffic(target.agentId, false);
    };
  }, [target.agentId]);

  const resume = () => {
    setPaused(false);
    setRows((list) => merge(list, held));
    setHeld([]);
  };

  const pairs = useMemo(() => pairRows(rows), [rows]);
  const visible = useMemo(() => filterRows(rows, filter, pairs), [rows, filter, pairs]);
  const drawn = visible.slice(-shown);
  const current = selected === null ? null : (rows.find((row) => row.seq === selected) ?? null);
  const patch = (change: Partial<TrafficFilter>) => setFilter((old) => ({ ...old, ...change }));

  const exportShown = () => {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    downloadText(`${target.agentId}-acp-${stamp}.jsonl`, 'application/jsonl', toJsonl(visible));
  };
  const [olderNote, setOlderNote] = useState<string | null>(null);
  const loadOlder = async () => {
    const older = await fetchRecorded(target.agentId, rows[0]?.t);
    if (!older) return;
    setOlderNote(older.rows.length ? `${older.rows.length} older messages from ${older.file}` : `Nothing older in ${older.file ?? 'the wire log'}`);
    if (!older.rows.length) return;
    // They have no place in the ring buffer's numbering: numbered below its rows, oldest first.
    setRows((list) => {
      const base = Math.min(0, list[0]?.seq ?? 0) - older.rows.length;
      return [...older.rows.map((row, i) => ({ ...row, seq: base + i })), ...list];
    });
  };
  const toggleRecording = async (on: boolean) => {
    const next = await setRecording(target.agentId, on);
    if (next) setRecordingState(next);
  };

  return (
    <dialog ref={dialog} className="dialog inspector-dialog" aria-labelledby="inspector-title" onClose={closeInspector}>
      <div className="dialog-head">
        <h2 id="inspector-title">Protocol inspector: {agentName}</h2>
        <button type="button" className="icon-button" aria-label="Close" onClick={() => dialog.current?.close()}>
          ×
        </button>
      </div>
      <div className="inspector-toolbar" role="toolbar" aria-label="Inspector actions">
        <button type="button" aria-pressed={paused} onClick={() => (paused ? resume() : setPaused(true))}>
          {paused ? `Resume${held.length ? ` (${held.length} new)` : ''}` : 'Pause'}
        </button>
        <button type="button" disabled={!visible.length} onClick={exportShown}>
          Export shown (.jsonl)
        </button>
        <label className="inspector-record" title={recording?.file ?? undefined}>
          <input type="checkbox" checked={recording?.next ?? false} disabled={!recording} onChange={(event) => void toggleRecording(event.target.checked)} />
          Record to the wire log file from the next start
        </label>
        <span className="muted small" aria-label="Recording status">
          {recording?.active ? `Recording now to ${recording.file}` : 'Not recording now'}
        </span>
        {(recording?.active || recording?.next) && (
          <button type="button" onClick={() => void loadOlder()}>
            Load older from the wire log
          </button>
        )}
        {olderNote && <span className="muted small">{olderNote}</span>}
      </div>
      <fieldset className="inspector-filters">
        <legend className="visually-hidden">Filters</legend>
        <label>
          Session
          <select value={filter.sessionIds?.[0] ?? ''} onChange={(event) => patch({ sessionIds: event.target.value ? [event.target.value] : [] })}>
            <option value="">All sessions</option>
            {sessions.map((entry) => {
              const [id, title] = entry.split('\u0000');
              return (
                <option key={id} value={id}>
                  {title}
                </option>
              );
            })}
          </select>
        </label>
        <label>
          Method
          <input type="search" value={filter.method ?? ''} placeholder="session/prompt" onChange={(event) => patch({ method: event.target.value })} />
        </label>
        <label>
          Direction
          <select value={filter.dir ?? 'both'} onChange={(event) => patch({ dir: event.target.value as TrafficFilter['dir'] })}>
            <option value="both">Both ways</option>
            <option value="out">App → agent</option>
            <option value="in">Agent → app</option>
          </select>
        </label>
        <label>
          Text
          <input type="search" value={filter.text ?? ''} onChange={(event) => patch({ text: event.target.value })} />
        </label>
        <label className="inspector-check">
          <input type="checkbox" checked={filter.errorsOnly ?? false} onChange={(event) => patch({ errorsOnly: event.target.checked })} />
          Errors only
        </label>
        {filter.until !== undefined && (
          <button type="button" className="inspector-chip" onClick={() => patch({ until: undefined })}>
            Up to {clock(filter.until)} ×<span className="visually-hidden"> (show later messages too)</span>
          </button>
        )}
      </fieldset>
      <p className="muted small" aria-live="polite">
        {visible.length} of {rows.length} messages shown
        {dropped + skipped > 0 ? ` · ${dropped} older dropped from the buffer${skipped ? `, ${skipped} skipped while flooding` : ''}` : ''}
      </p>
      <div className="inspector-body">
        <div className="inspector-rows">
          {visible.length > drawn.length && (
            <button type="button" className="inspector-more" onClick={() => setShown((count) => count + PAGE)}>
              Show {Math.min(PAGE, visible.length - drawn.length)} earlier
            </button>
          )}
          <ol aria-label="Messages">
            {drawn.map((row) => (
              <TrafficRowView key={row.seq} row={row} pairing={pairs.get(row.seq)} selected={row.seq === selected} onSelect={setSelected} />
            ))}
          </ol>
        </div>
        <MessageDetail row={current} />
      </div>
    </dialog>
  );
}

function TrafficRowView({ row, pairing, selected, onSelect }: { row: TrafficRow; pairing?: Pairing; selected: boolean; onSelect: (seq: number) => void }) {
  const failed = row.kind === 'error' || row.kind === 'invalid';
  const method = row.method ?? pairing?.method ?? '';
  const what = row.kind === 'response' || row.kind === 'error' ? `answer to ${method || `#${String(row.id)}`}` : method || row.kind;
  return (
    <li className={`inspector-row${failed ? ' failed' : ''}${selected ? ' selected' : ''}`}>
      <button type="button" aria-pressed={selected} onClick={() => onSelect(row.seq)}>
        <span className="inspector-time">{clock(row.t)}</span>
        <span className="inspector-dir" aria-label={row.dir === 'out' ? 'app to agent' : 'agent to app'}>
          {row.dir === 'out' ? '→' : '←'}
        </span>
        <span className="inspector-method">{what}</span>
        <span className="inspector-kind muted">{row.kind}</span>
        {row.sessionId && <span className="inspector-session muted">{row.sessionId.slice(0, 10)}</span>}
        {pairing && <span className="inspector-latency">{pairing.latencyMs} ms</span>}
        {row.error && (
          <span className="inspector-error">
            error {row.error.code ?? ''} {row.error.message ?? ''}
          </span>
        )}
      </button>
    </li>
  );
}

function MessageDetail({ row }: { row: TrafficRow | null }) {
  const [copied, setCopied] = useState(false);
  const value = useMemo(() => {
    if (!row || row.truncated) return undefined;
    try {
      return parseJson(row.text);
    } catch {
      return undefined;
    }
  }, [row]);
  if (!row)
    return (
      <section className="inspector-detail muted" aria-label="Message">
        Pick a message to see it whole.
      </section>
    );
  const copy = async () => {
    await navigator.clipboard?.writeText(value === undefined ? row.text : JSON.stringify(value, null, 2)).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <section className="inspector-detail" aria-label="Message">
      <div className="dialog-head">
        <span className="muted small">
          #{row.seq} · {row.size.toLocaleString()} characters{row.truncated ? ' · cut for display' : ''}
        </span>
        <button type="button" onClick={() => void copy()}>
          <Icon name="copy" /> {copied ? 'Copied' : 'Copy JSON'}
        </button>
      </div>
      {value === undefined ? <pre className="stderr">{row.text}</pre> : <JsonTree value={value} />}
    </section>
  );
}

/** Rows joined by seq (live rows may repeat the window's), oldest first, within KEEP. */
function merge(list: TrafficRow[], more: TrafficRow[]): TrafficRow[] {
  if (!more.length) return list;
  const last = list.length ? list[list.length - 1].seq : 0;
  if (more[0].seq > last) return [...list, ...more].slice(-KEEP);
  const bySeq = new Map(list.map((row) => [row.seq, row]));
  for (const row of more) bySeq.set(row.seq, row);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq).slice(-KEEP);
}

function clock(t: number): string {
  const date = new Date(t);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}
