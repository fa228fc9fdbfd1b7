import type { SessionStatus } from '../../src-shared/session/state';

const LABELS: Record<SessionStatus, string> = {
  starting: 'Starting',
  idle: 'Idle',
  running: 'Streaming',
  waiting: 'Waiting for you',
  error: 'Error',
  exited: 'Agent stopped',
};

export function statusLabel(status: SessionStatus): string {
  return LABELS[status] ?? status;
}

/** The session's state as a coloured dot; `decorative` when the text is said elsewhere. */
export function StatusDot({ status, decorative }: { status: SessionStatus; decorative?: boolean }) {
  if (decorative) return <span className={`status-dot status-${status}`} aria-hidden="true" />;
  return <span className={`status-dot status-${status}`} role="img" aria-label={statusLabel(status)} title={statusLabel(status)} />;
}
