import { EMPTY, useStore } from '../store';

/** App-level notices (a malformed settings file, a restore problem) and the last failed request. */
export function Notices() {
  const notices = useStore((s) => s.app?.notices ?? EMPTY);
  const toast = useStore((s) => s.toast);
  const showToast = useStore((s) => s.showToast);
  if (!notices.length && !toast) return null;
  return (
    <div className="notices">
      {notices.map((notice) => (
        <div key={notice.id} role={notice.level === 'error' ? 'alert' : 'status'} className={`banner banner-${notice.level}`}>
          {notice.message}
        </div>
      ))}
      {toast && (
        <div role="alert" className="banner banner-error">
          <span>{toast}</span>
          <button type="button" aria-label="Dismiss error" onClick={() => showToast(null)}>
            ×
          </button>
        </div>
      )}
    </div>
  );
}
