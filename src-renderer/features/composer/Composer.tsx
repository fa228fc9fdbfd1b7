import { useEffect, useId, useRef, useState } from 'react';
import { blockTypeName } from '../../../src-shared/session/content';
import type { ContentBlock } from '../../../src-shared/session/events';
import type { AgentCommand } from '../../../src-shared/session/controls';
import { askNotificationPermission } from '../sessions/attention';
import { EMPTY, useSessionUi, useStore, type Attachment } from '../../store';
import { ContinueNewButton, usePersistedDraft } from '../history';
import { Icon } from '../../ui/Icon';
import { cancelTurn, searchFiles, sendPrompt } from './actions';
import { logged } from '../../log';
import { useViewShown } from '../../ui/viewShown';

const NO_COMMANDS: AgentCommand[] = [];

type Suggestion = { id: string; label: string; detail?: string; hint?: string; value: string };
type Menu = { kind: 'command' | 'file'; start: number; query: string; items: Suggestion[]; active: number };

const MAX_IMAGE_BYTES = 8 * 1024 * 1024;

/**
 * Enter sends, Shift+Enter adds a line; `/` lists the agent's commands, `@` finds a workspace
 * file to attach; images are pasted or dropped when the agent accepts them. Stop (or Esc)
 * cancels the running turn; a message sent meanwhile is queued visibly. The draft and its
 * attachments are kept per session, so switching tabs loses nothing.
 */
export function Composer({ sessionId }: { sessionId: string }) {
  const text = useSessionUi(sessionId, (ui) => ui.draft);
  const attachments = useSessionUi(sessionId, (ui) => ui.attachments);
  const running = useStore((s) => Boolean(s.sessions[sessionId]?.currentTurnId));
  const readonlyReason = useStore((s) => s.sessions[sessionId]?.readonlyReason ?? null);
  const queue = useStore((s) => s.sessions[sessionId]?.queue ?? EMPTY);
  const commands = useStore((s) => s.sessions[sessionId]?.commands ?? NO_COMMANDS);
  const agentId = useStore((s) => s.sessions[sessionId]?.agentId);
  const acceptsImages = useStore((s) => {
    const agent = s.app?.agents.find((a) => a.id === agentId);
    return agent?.capabilities?.promptCapabilities.image ?? false;
  });
  const [menu, setMenu] = useState<Menu | null>(null);
  const [dragOver, setDragOver] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const listId = useId();
  const search = useRef(0);
  const patch = (p: { draft?: string; attachments?: Attachment[] }) => useStore.getState().patchSessionUi(sessionId, p);
  const setText = (draft: string) => patch({ draft });
  // Unsent text survives restarts and crashes (history).
  usePersistedDraft(sessionId, text, setText);

  // Focused whenever its session is shown (a hidden view stays mounted: SessionViews.tsx).
  const shown = useViewShown();
  useEffect(() => {
    if (shown) textarea.current?.focus();
  }, [sessionId, shown]);

  const commandHint = (() => {
    const match = /^\/(\S+)\s*$/.exec(text);
    if (!match) return null;
    const command = commands.find((c) => c.name === match[1]);
    return command?.hint ?? null;
  })();

  const send = async () => {
    const prompt = text.trim();
    if (!prompt && attachments.length === 0) return;
    askNotificationPermission();
    const blocks: ContentBlock[] = [];
    if (prompt) blocks.push({ type: 'text', text: prompt });
    for (const attachment of attachments) blocks.push(attachment.block);
    patch({ draft: '', attachments: [] });
    setMenu(null);
    const result = await sendPrompt(sessionId, blocks);
    if (!result) patch({ draft: prompt, attachments });
  };
  const stop = () => cancelTurn(sessionId);

  const updateMenu = (value: string, caret: number) => {
    const before = value.slice(0, caret);
    const slash = /^\/(\S*)$/.exec(before);
    if (slash && commands.length) {
      const query = slash[1].toLowerCase();
      const items = commands
        .filter((c) => c.name.toLowerCase().startsWith(query) || (c.description ?? '').toLowerCase().includes(query))
        .map((c) => ({ id: `cmd-${c.name}`, label: `/${c.name}`, detail: c.description, hint: c.hint, value: `/${c.name} ` }));
      setMenu(items.length ? { kind: 'command', start: 0, query, items, active: 0 } : null);
      return;
    }
    const at = /(^|\s)@([^\s@]*)$/.exec(before);
    if (at) {
      const start = caret - at[2].length - 1;
      const query = at[2];
      const ticket = ++search.current;
      setMenu((m) => (m?.kind === 'file' ? { ...m, start, query } : { kind: 'file', start, query, items: [], active: 0 }));
      void searchFiles(sessionId, query)
        .then(({ root, paths }) => {
          if (ticket !== search.current) return;
          const items = paths.map((path) => ({ id: `file-${path}`, label: relativeTo(root, path), value: path }));
          setMenu((m) => (m && m.kind === 'file' ? { ...m, items, active: 0 } : m));
        })
        // The menu stays empty: mentions can still be typed by hand.
        .catch(logged('Searching workspace files for an @-mention'));
      return;
    }
    setMenu(null);
  };

  const choose = (item: Suggestion) => {
    if (!menu) return;
    const caret = textarea.current?.selectionStart ?? text.length;
    if (menu.kind === 'command') {
      const next = item.value + text.slice(caret).replace(/^\S*\s?/, '');
      setText(next);
      requestAnimationFrame(() => textarea.current?.setSelectionRange(item.value.length, item.value.length));
    } else {
      const name = item.label.split('/').pop() || item.label;
      const next = text.slice(0, menu.start) + text.slice(caret);
      const uri = toFileUri(item.value);
      patch({
        draft: next,
        attachments: [
          ...attachments.filter((a) => !(a.block.type === 'resource_link' && a.block.uri === uri)),
          { id: `${uri}`, label: item.label, block: { type: 'resource_link', uri, name } },
        ],
      });
      requestAnimationFrame(() => textarea.current?.setSelectionRange(menu.start, menu.start));
    }
    setMenu(null);
    textarea.current?.focus();
  };

  const addImages = async (files: File[]) => {
    const images = files.filter((f) => f.type.startsWith('image/'));
    if (!images.length) return false;
    if (!acceptsImages) {
      setNote('This agent does not accept images.');
      return true;
    }
    const added: Attachment[] = [];
    for (const file of images) {
      if (file.size > MAX_IMAGE_BYTES) {
        setNote(`${file.name || 'The image'} is larger than 8 MB.`);
        continue;
      }
      const data = await toBase64(file);
      const name = file.name || `image.${file.type.split('/')[1] ?? 'png'}`;
      added.push({ id: `img-${Date.now()}-${added.length}`, label: name, block: { type: 'image', mimeType: file.type, data } });
    }
    if (added.length) {
      setNote(null);
      patch({ attachments: [...useStore.getState().uiOf(sessionId).attachments, ...added] });
    }
    return true;
  };

  const activeItem = menu?.items[menu.active];
  return (
    <form
      className={`composer${dragOver ? ' drag-over' : ''}`}
      aria-label="Compose a message"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
      onDragOver={(event) => {
        if (event.dataTransfer.types.includes('Files')) {
          event.preventDefault();
          setDragOver(true);
        }
      }}
      onDragLeave={() => setDragOver(false)}
      onDrop={(event) => {
        setDragOver(false);
        const files = [...event.dataTransfer.files];
        if (files.length) {
          event.preventDefault();
          void addImages(files);
        }
      }}
    >
      {queue.length > 0 && (
        <ul className="queue" aria-label="Queued messages">
          {queue.map((item) => (
            <li key={item.queueId}>
              <Icon name="clock" />
              <span className="muted">Queued:</span> {item.prompt.map((b) => (b.type === 'text' ? b.text : `[${blockTypeName(b)}]`)).join(' ')}
            </li>
          ))}
        </ul>
      )}
      {readonlyReason && (
        <div className="readonly-actions">
          <p className="muted">{readonlyReason}</p>
          <ContinueNewButton sessionId={sessionId} />
        </div>
      )}
      {menu && (
        <ul id={listId} role="listbox" className="suggestions" aria-label={menu.kind === 'command' ? 'Commands' : 'Files'}>
          {menu.items.length === 0 && (
            <li role="option" aria-selected={false} aria-disabled="true" className="muted">
              {menu.kind === 'file' ? (menu.query ? 'No matching files' : 'Type to search the workspace…') : 'No commands'}
            </li>
          )}
          {menu.items.map((item, i) => (
            <li
              key={item.id}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === menu.active}
              className={i === menu.active ? 'active' : undefined}
              onMouseDown={(event) => {
                event.preventDefault();
                choose(item);
              }}
            >
              <span className="suggestion-label">{item.label}</span>
              {item.detail && <span className="suggestion-detail">{item.detail}</span>}
              {item.hint && <span className="suggestion-hint">{item.hint}</span>}
            </li>
          ))}
        </ul>
      )}
      {attachments.length > 0 && (
        <ul className="attachments" aria-label="Attachments">
          {attachments.map((attachment) => (
            <li key={attachment.id} className="chip">
              {attachment.block.type === 'image' ? (
                <img className="chip-thumb" alt="" src={`data:${String(attachment.block.mimeType)};base64,${String(attachment.block.data)}`} />
              ) : (
                <Icon name="file" />
              )}
              <span className="chip-label">{attachment.label}</span>
              <button
                type="button"
                className="chip-remove"
                aria-label={`Remove ${attachment.label}`}
                onClick={() => patch({ attachments: attachments.filter((a) => a.id !== attachment.id) })}
              >
                <Icon name="close" />
              </button>
            </li>
          ))}
        </ul>
      )}
      {note && (
        <p className="muted small" role="status">
          {note}
        </p>
      )}
      <div className="composer-box">
        <textarea
          ref={textarea}
          aria-label="Message"
          aria-autocomplete="list"
          aria-controls={menu ? listId : undefined}
          aria-activedescendant={menu && activeItem ? `${listId}-${menu.active}` : undefined}
          placeholder={commandHint ?? (running ? 'Queue a message for when this turn ends…' : 'Message the agent — / for commands, @ for files')}
          value={text}
          rows={3}
          disabled={Boolean(readonlyReason)}
          onChange={(event) => {
            setText(event.target.value);
            updateMenu(event.target.value, event.target.selectionStart ?? event.target.value.length);
          }}
          onBlur={() => setTimeout(() => setMenu(null), 150)}
          onPaste={(event) => {
            const files = [...event.clipboardData.files];
            if (files.some((f) => f.type.startsWith('image/'))) {
              event.preventDefault();
              void addImages(files);
            }
          }}
          onKeyDown={(event) => {
            if (menu && menu.items.length) {
              if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
                event.preventDefault();
                const delta = event.key === 'ArrowDown' ? 1 : -1;
                setMenu({ ...menu, active: (menu.active + delta + menu.items.length) % menu.items.length });
                return;
              }
              if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
                event.preventDefault();
                choose(menu.items[menu.active]);
                return;
              }
            }
            if (menu && event.key === 'Escape') {
              event.preventDefault();
              setMenu(null);
              return;
            }
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              void send();
            } else if (event.key === 'Escape' && running) {
              event.preventDefault();
              stop();
            }
          }}
        />
        {commandHint && <span className="command-hint muted small">{commandHint}</span>}
        <div className="composer-actions">
          <span className="muted small composer-help">{acceptsImages ? 'Paste or drop images · ' : ''}Shift+Enter for a new line</span>
          {running && (
            <button type="button" className="danger" onClick={stop} title="Stop (Esc)">
              <Icon name="stop" /> Stop
            </button>
          )}
          <button type="submit" className="primary" disabled={(!text.trim() && attachments.length === 0) || Boolean(readonlyReason)}>
            <Icon name="send" /> Send
          </button>
        </div>
      </div>
    </form>
  );
}

function relativeTo(root: string, path: string): string {
  const base = root.endsWith('/') || root.endsWith('\\') ? root : `${root}/`;
  return path.startsWith(base) ? path.slice(base.length) : path;
}

function toFileUri(path: string): string {
  const normalized = path.replace(/\\/g, '/');
  return `file://${normalized.startsWith('/') ? '' : '/'}${encodeURI(normalized)}`;
}

function toBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}
