import type { PermissionOption } from '../../src-shared/session/events';

/**
 * "Always" permission choices, remembered per agent and tool kind in settings
 * (`alwaysAllow`: `${agentId}:${toolKind}` → `allow_always` | `reject_always`). A later request
 * for the same agent and kind is answered with the agent's own option of that kind; nothing
 * is ever approved when the agent offers no such option.
 */
export const REMEMBERED_KINDS = new Set(['allow_always', 'reject_always']);

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
