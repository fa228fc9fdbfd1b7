import { useEffect, useRef } from 'react';
import { KNOWN_PERMISSION_KINDS, isKnown } from '../../../src-shared/acp/known';
import type { PendingPermission } from '../../../src-shared/session/state';
import { useStore } from '../../store';
import { Icon } from '../../ui/Icon';
import { AgentText, revealBidi } from '../../ui/AgentText';
import { answerPermission } from './actions';
import { PermissionSubject } from './PermissionSubject';

type Kind = (typeof KNOWN_PERMISSION_KINDS)[number];
const KIND_ICONS: Record<Kind, string> = { allow_once: 'check', allow_always: 'check', reject_once: 'x', reject_always: 'x' };
const KIND_HINTS: Record<Kind, string> = {
  allow_once: 'allow this time',
  allow_always: 'allow and remember',
  reject_once: 'reject this time',
  reject_always: 'reject and remember',
};

/**
 * The permission question on its tool call: one button per option, named as the agent names
 * it and styled by kind. The first option takes the focus when the request appears (unless
 * the person is typing); arrow keys move between options.
 */
export function PermissionCard({ sessionId, permission }: { sessionId: string; permission: PendingPermission }) {
  const group = useRef<HTMLDivElement>(null);
  const title = permission.title ?? (permission.tool.title || 'The agent asks for permission');

  useEffect(() => {
    // Once per request: rows remount when scrolled, and must not take the focus again.
    if (useStore.getState().focusedPermissions[permission.requestId]) return;
    useStore.setState((s) => ({ focusedPermissions: { ...s.focusedPermissions, [permission.requestId]: true } }));
    const active = document.activeElement as HTMLElement | null;
    const typing = active instanceof HTMLTextAreaElement && active.value.length > 0;
    // Only when the card is on screen: a focused option that is scrolled away could be approved unseen.
    const card = group.current?.getBoundingClientRect();
    const visible = card && card.top >= 0 && card.bottom <= window.innerHeight;
    if (visible && !typing && !(active instanceof HTMLInputElement) && !(active instanceof HTMLSelectElement)) {
      group.current?.querySelector<HTMLButtonElement>('button')?.focus({ preventScroll: true });
    }
  }, [permission.requestId]);

  const buttons = () => [...(group.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
  const move = (delta: number) => {
    const list = buttons();
    const index = list.indexOf(document.activeElement as HTMLButtonElement);
    list[(index + delta + list.length) % list.length]?.focus();
  };

  return (
    <div className="permission" role="group" aria-label={`Permission requested: ${revealBidi(title)}`}>
      <p className="permission-question">
        <Icon name="shield" />
        <span>
          <strong>Allow?</strong> <AgentText text={title} />
        </span>
      </p>
      <PermissionSubject permission={permission} />
      <div
        ref={group}
        className="permission-options"
        role="group"
        aria-label="Options"
        onKeyDown={(event) => {
          if (event.key === 'ArrowRight' || event.key === 'ArrowDown') {
            event.preventDefault();
            move(1);
          } else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') {
            event.preventDefault();
            move(-1);
          } else if (event.key === 'Home') {
            event.preventDefault();
            buttons()[0]?.focus();
          } else if (event.key === 'End') {
            event.preventDefault();
            buttons().at(-1)?.focus();
          }
        }}
      >
        {permission.options.map((option) => (
          <button
            key={option.optionId}
            type="button"
            className={`option option-${isKnown(KNOWN_PERMISSION_KINDS, option.kind) ? option.kind : 'unknown'}`}
            title={`${revealBidi(option.name)} (${isKnown(KNOWN_PERMISSION_KINDS, option.kind) ? KIND_HINTS[option.kind] : revealBidi(option.kind)})`}
            onClick={() => answerPermission(sessionId, permission.requestId, option.optionId)}
          >
            <Icon name={isKnown(KNOWN_PERMISSION_KINDS, option.kind) ? KIND_ICONS[option.kind] : 'unknown'} />
            <AgentText text={option.name} />
          </button>
        ))}
      </div>
    </div>
  );
}
