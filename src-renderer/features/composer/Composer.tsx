import { useState } from 'react';
import { bridge } from '../../bridge';
import { run, useAppStore } from '../../store/appStore';
import { EMPTY } from '../../store/empty';

/** Enter sends, Shift+Enter adds a line; Stop (or Esc) cancels the running turn. */
export function Composer({ sessionId }: { sessionId: string }) {
  const [text, setText] = useState('');
  const running = useAppStore((s) => {
    const status = s.sessions[sessionId]?.status;
    return status === 'running' || status === 'waiting';
  });
  const readonlyReason = useAppStore((s) => s.sessions[sessionId]?.readonlyReason ?? null);
  const queue = useAppStore((s) => s.sessions[sessionId]?.queue ?? EMPTY);

  const send = async () => {
    const prompt = text.trim();
    if (!prompt) return;
    setText('');
    const result = await run(bridge.request('session.prompt', { sessionId, prompt: [{ type: 'text', text: prompt }] }));
    if (!result) setText(prompt);
  };
  const stop = () => void run(bridge.request('session.cancel', { sessionId }));

  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      {queue.length > 0 && (
        <ul className="queue" aria-label="Queued messages">
          {queue.map((item) => (
            <li key={item.queueId}>Queued: {item.prompt.map((b) => (b.type === 'text' ? String(b.text) : `[${b.type}]`)).join(' ')}</li>
          ))}
        </ul>
      )}
      {readonlyReason && <p className="muted">{readonlyReason}</p>}
      <textarea
        aria-label="Message"
        placeholder="Message the agent (Enter to send, Shift+Enter for a new line)"
        value={text}
        rows={3}
        disabled={Boolean(readonlyReason)}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            void send();
          } else if (event.key === 'Escape' && running) {
            event.preventDefault();
            stop();
          }
        }}
      />
      <div className="composer-actions">
        {running && (
          <button type="button" className="danger" onClick={stop}>
            Stop
          </button>
        )}
        <button type="submit" className="primary" disabled={!text.trim() || Boolean(readonlyReason)}>
          Send
        </button>
      </div>
    </form>
  );
}
