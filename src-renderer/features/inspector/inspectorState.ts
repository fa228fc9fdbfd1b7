import { create } from 'zustand';

/** What the inspector was opened on: an agent, and optionally one of its sessions and a moment. */
export interface InspectorTarget {
  agentId: string;
  /** The ACP session to filter on (from a session header or a notice). */
  acpSessionId?: string;
  /** "The messages that led to this": nothing after this time (epoch ms). */
  until?: number;
}

/**
 * Whether the protocol inspector is open, and on what. View-only state of one feature, kept in
 * its own small store so the app store (shared by every feature) needs no new slice for it.
 */
export const useInspector = create<{ target: InspectorTarget | null }>(() => ({ target: null }));

export function openInspector(target: InspectorTarget): void {
  useInspector.setState({ target });
}

export function closeInspector(): void {
  useInspector.setState({ target: null });
}
