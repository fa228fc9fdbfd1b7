import type { PermissionOption } from '../../src-shared/session/events';

/**
 * "Always" permission choices, remembered per agent and tool kind in settings
 * (`alwaysAllow`: `${agentId}:${toolKind}` → `allow_always` | `reject_always`). A later request
 * for the same agent and kind is answered with the agent's own option of that kind; nothing
 * is ever approved when the agent offers no such option.
 */
export const REMEMBERED_KINDS = new Set(['allow_always', 'reject_always']);

export interface RememberedPermission {
  key: string;
  agentId: string;
  toolKind: string;
  optionKind: string;
}

export function permissionKey(agentId: string, toolKind: string | undefined | null): string {
  return `${agentId}:${toolKind || 'other'}`;
}

/** The option to answer with automatically, if the person chose "always" for this kind before. */
export function rememberedOption(
  alwaysAllow: Readonly<Record<string, string>>,
  agentId: string,
  toolKind: string | undefined | null,
  options: readonly PermissionOption[],
): PermissionOption | null {
  const kind = alwaysAllow[permissionKey(agentId, toolKind)];
  if (!kind || !REMEMBERED_KINDS.has(kind)) return null;
  return options.find((option) => option.kind === kind) ?? null;
}

export function listRemembered(alwaysAllow: Readonly<Record<string, string>>): RememberedPermission[] {
  return Object.entries(alwaysAllow)
    .map(([key, optionKind]) => {
      const split = key.indexOf(':');
      return { key, agentId: split > 0 ? key.slice(0, split) : key, toolKind: split > 0 ? key.slice(split + 1) : 'other', optionKind };
    })
    .sort((a, b) => a.key.localeCompare(b.key));
}
