/**
 * The values this app knows, one list per protocol field (ACP v1 plus the app's own where
 * marked). Anything else is kept and shown generically: a value starting with `_` is an
 * extension, any other unknown value is a future ACP value (protocol-v1-extensibility.md,
 * rfds-v2-enum-variant-extension.md). Nothing is dropped and nothing crashes on it.
 */

/** `session/update` → `sessionUpdate`. */
export const KNOWN_UPDATE_KINDS = [
  'user_message_chunk',
  'agent_message_chunk',
  'agent_thought_chunk',
  'tool_call',
  'tool_call_update',
  'plan',
  'available_commands_update',
  'current_mode_update',
  'config_option_update',
  'session_info_update',
  'usage_update',
] as const;

/** `ToolCall.kind`. */
export const KNOWN_TOOL_KINDS = ['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other'] as const;

/** `ToolCall.status`. */
export const KNOWN_TOOL_STATUSES = ['pending', 'in_progress', 'completed', 'failed'] as const;
/** `ToolCall.status` values ACP v2 adds (a call the agent paused). */
export const KNOWN_V2_TOOL_STATUSES = ['paused'] as const;
/** The app's own tool-call statuses (a permission waits; the turn ended with the call open). */
export const APP_TOOL_STATUSES = ['awaiting_permission', 'canceled'] as const;

/** `ContentBlock.type`. */
export const KNOWN_CONTENT_TYPES = ['text', 'image', 'audio', 'resource_link', 'resource'] as const;

/** `ToolCallContent.type`. */
export const KNOWN_TOOL_CONTENT_TYPES = ['content', 'diff', 'terminal'] as const;

/** `PermissionOption.kind`. */
export const KNOWN_PERMISSION_KINDS = ['allow_once', 'allow_always', 'reject_once', 'reject_always'] as const;

/** `AuthMethod.type` (rfds-auth-methods; absent means `agent`). */
export const KNOWN_AUTH_METHOD_TYPES = ['agent', 'env_var', 'terminal'] as const;

/** `SessionConfigOption.type` (`boolean`: rfds-boolean-config-option). */
export const KNOWN_CONFIG_OPTION_TYPES = ['select', 'boolean'] as const;
/** `SessionConfigOption.category`, in the order the config bar shows them. */
export const KNOWN_CONFIG_CATEGORIES = ['mode', 'model', 'model_config', 'thought_level'] as const;

/** `PlanEntry.priority` and `PlanEntry.status`. */
export const KNOWN_PLAN_PRIORITIES = ['high', 'medium', 'low'] as const;
export const KNOWN_PLAN_STATUSES = ['pending', 'in_progress', 'completed', 'cancelled'] as const;

/** `PromptResponse.stopReason`. */
export const KNOWN_STOP_REASONS = ['end_turn', 'max_tokens', 'max_turn_requests', 'refusal', 'cancelled'] as const;
/** The app's own stop reasons (the turn failed, the app closed it on restart, it waits for sign-in). */
export const APP_STOP_REASONS = ['error', 'interrupted', 'auth_required'] as const;
/** A label for every stop reason the app knows; others are shown as they came. */
export type StopReasonLabels = Record<(typeof KNOWN_STOP_REASONS)[number] | (typeof APP_STOP_REASONS)[number], string>;

/** Elicitation `mode` (rfds-elicitation). */
export const KNOWN_ELICITATION_MODES = ['form', 'url'] as const;

/** Whether `value` is one of `list` (and then typed as such). */
export function isKnown<T extends string>(list: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (list as readonly string[]).includes(value);
}
