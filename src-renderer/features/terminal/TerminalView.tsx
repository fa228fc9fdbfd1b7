import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import '@xterm/xterm/css/xterm.css';
import { useStore } from '../../store';
import { subscribeTerminal } from '../../store/terminalBus';
import { resizeTerminal, typeIntoTerminal } from './actions';
import { logRenderer } from '../../log';
import { lastAnsiLines, type AnsiSegment } from './ansiLines';

export interface TerminalViewProps {
  sessionId: string;
  terminalId: string;
  /** Keystrokes go to the process (`terminal.input`) and the size follows the view (`terminal.resize`). */
  interactive?: boolean;
  /** Height in rows when the view is not stretched by its container. */
  rows?: number;
  /** Fill the container's height instead of `rows`. */
  fill?: boolean;
  /** Hide the command / exit status line. */
  bare?: boolean;
  /**
   * A transcript row: a finished terminal shows its last lines as text, and xterm only once the
   * row stays in view or is pressed (not on pointer enter: content scrolling under a resting
   * pointer enters each row). Scrolling past a session that ran thousands of commands mounted an
   * xterm per row (issue 23).
   */
  deferred?: boolean;
}

/**
 * An ACP terminal in xterm.js: ANSI colours, live output, exit status, and the output kept
 * after the agent releases the terminal. Output is written into xterm incrementally (the
 * text the store holds at mount, then each new chunk from the terminal bus), never through
 * a React render per chunk.
 */
export function TerminalView({ sessionId, terminalId, interactive = false, rows = 12, fill = false, bare = false, deferred = false }: TerminalViewProps) {
  const host = useRef<HTMLDivElement>(null);
  const command = useStore((s) => {
    const t = s.sessions[sessionId]?.terminals[terminalId];
    return t ? [t.command, ...t.args].join(' ') : terminalId;
  });
  const exited = useStore((s) => s.sessions[sessionId]?.terminals[terminalId]?.exited ?? false);
  const exitCode = useStore((s) => s.sessions[sessionId]?.terminals[terminalId]?.exitCode ?? null);
  const signal = useStore((s) => s.sessions[sessionId]?.terminals[terminalId]?.signal ?? null);
  const released = useStore((s) => s.sessions[sessionId]?.terminals[terminalId]?.released ?? false);
  // Once xterm is up it stays: a terminal that ends while shown keeps its view.
  const [live, setLive] = useState(!deferred || interactive || !exited);
  if (!live && !exited) setLive(true);
  useSoonInView(host, !live, () => setLive(true));

  useEffect(() => {
    const element = host.current;
    if (!element || !live) return;
    const style = getComputedStyle(element);
    const terminal = new Terminal({
      rows,
      convertEol: !interactive,
      disableStdin: !interactive,
      cursorBlink: interactive,
      cursorInactiveStyle: interactive ? 'outline' : 'none',
      scrollback: 5000,
      fontSize: 12.5,
      fontFamily: "ui-monospace, 'SF Mono', Menlo, Consolas, 'DejaVu Sans Mono', monospace",
      screenReaderMode: false,
      theme: {
        background: style.getPropertyValue('--term-bg').trim() || '#101216',
        foreground: style.getPropertyValue('--term-fg').trim() || '#e6e8eb',
        cursor: style.getPropertyValue('--term-fg').trim() || '#e6e8eb',
      },
    });
    const fit = new FitAddon();
    terminal.loadAddon(fit);
    terminal.open(element);
    const session = useStore.getState().sessions[sessionId];
    const mountSeq = session?.lastSeq ?? 0;
    const initial = session?.terminals[terminalId]?.output ?? '';
    if (initial) terminal.write(initial);
    const unsubscribe = subscribeTerminal(sessionId, terminalId, (data, seq, replace) => {
      if (seq <= mountSeq) return;
      if (replace) terminal.reset();
      terminal.write(data);
    });
    const disposables: { dispose(): void }[] = [];
    if (interactive) {
      disposables.push(terminal.onData((data) => typeIntoTerminal(sessionId, terminalId, data)));
      disposables.push(terminal.onResize(({ cols, rows: r }) => resizeTerminal(sessionId, terminalId, cols, r)));
    }
    const refit = () => {
      if (!element.isConnected || element.clientWidth === 0) return;
      try {
        if (fill) fit.fit();
        else {
          const dims = fit.proposeDimensions();
          if (dims && dims.cols > 1 && dims.cols !== terminal.cols) terminal.resize(dims.cols, rows);
        }
      } catch (error) {
        // Expected before the view is laid out: the resize observer fits it again once it is.
        logRenderer('debug', 'Fitting a terminal view', error);
      }
    };
    const observer = new ResizeObserver(() => refit());
    observer.observe(element);
    refit();
    if (interactive) terminal.focus();
    return () => {
      observer.disconnect();
      unsubscribe();
      disposables.forEach((d) => d.dispose());
      terminal.dispose();
    };
  }, [sessionId, terminalId, interactive, rows, fill, live]);

  const state = exited ? (signal ? `Killed (${signal})` : `Exited with code ${String(exitCode)}`) : 'Running';
  return (
    <div className={`terminal-view${fill ? ' fill' : ''}${exited ? ' exited' : ''}`} role="region" aria-label={`Terminal: ${command}`}>
      {!bare && (
        <div className="terminal-head">
          <code className="terminal-command" title={command}>
            {command}
          </code>
          <span className={`terminal-state ${exited ? (exitCode === 0 ? 'ok' : 'bad') : 'running'}`} role="status">
            {!exited && <span className="spinner" aria-hidden="true" />}
            {state}
            {released ? ' · released' : ''}
          </span>
        </div>
      )}
      <div ref={host} className="terminal-host" style={fill ? undefined : { height: rows * 17 + 12 }} onPointerDown={live ? undefined : () => setLive(true)}>
        {!live && <TerminalText sessionId={sessionId} terminalId={terminalId} rows={rows} />}
      </div>
    </div>
  );
}

/** How long a row must stay in view before its xterm is mounted: longer than a wheel step or a fling. */
const SETTLE_MS = 300;

/** Calls `settle` once `element` has stayed in the viewport for SETTLE_MS (while `waiting`). */
function useSoonInView(element: RefObject<HTMLElement | null>, waiting: boolean, settle: () => void): void {
  const latest = useRef(settle);
  latest.current = settle;
  useEffect(() => {
    const target = element.current;
    if (!waiting || !target) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new IntersectionObserver(([entry]) => {
      clearTimeout(timer);
      if (entry?.isIntersecting) timer = setTimeout(() => latest.current(), SETTLE_MS);
    });
    observer.observe(target);
    return () => {
      clearTimeout(timer);
      observer.disconnect();
    };
  }, [element, waiting]);
}

/** A finished terminal's last lines as styled text, laid out as xterm lays them (same font and rows). */
function TerminalText({ sessionId, terminalId, rows }: { sessionId: string; terminalId: string; rows: number }) {
  const output = useStore((s) => s.sessions[sessionId]?.terminals[terminalId]?.output ?? '');
  const lines = useMemo(() => lastAnsiLines(output, rows), [output, rows]);
  return (
    <pre className="terminal-text">
      {lines.map((segments, i) => (
        <div key={i}>
          {segments.map((segment, j) => (
            <span key={j} className={segmentClass(segment)}>
              {segment.text}
            </span>
          ))}
        </div>
      ))}
    </pre>
  );
}

function segmentClass({ fg, bold, dim }: AnsiSegment): string | undefined {
  const names = [fg !== undefined && `ansi-fg-${fg}`, bold && 'ansi-bold', dim && 'ansi-dim'].filter(Boolean);
  return names.length > 0 ? names.join(' ') : undefined;
}
