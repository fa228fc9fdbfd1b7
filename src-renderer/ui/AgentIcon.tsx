/** An agent's icon: sanitized SVG from main (monochrome, `currentColor`), or its first letter. */
export function AgentIcon({ name, svg }: { name: string; svg?: string }) {
  if (svg) {
    // The markup was sanitized in main (no scripts, handlers or external references).
    return <span className="agent-icon" aria-hidden="true" dangerouslySetInnerHTML={{ __html: svg }} />;
  }
  return (
    <span className="agent-icon letter" aria-hidden="true">
      {name.trim().charAt(0).toUpperCase() || '?'}
    </span>
  );
}
