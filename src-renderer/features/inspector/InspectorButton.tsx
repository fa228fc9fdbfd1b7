import { openInspector, type InspectorTarget } from './inspectorState';

/** Opens the protocol inspector on an agent (a session, a moment): the entry points share it. */
export function InspectorButton({ target, label, className }: { target: InspectorTarget; label: string; className?: string }) {
  return (
    <button type="button" className={className} onClick={() => openInspector(target)}>
      {label}
    </button>
  );
}
