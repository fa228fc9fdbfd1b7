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

export function StatusDot({ status }: { status: SessionStatus }) {
  return <span className={`status-dot status-${status}`} role="img" aria-label={statusLabel(status)} title={statusLabel(status)} />;
}
