/** Anything the app does not understand: a labelled box with its raw JSON. Never dropped. */
export function UnknownBox({ label, raw }: { label: string; raw: unknown }) {
  return (
    <details className="entry unknown" aria-label={`Unknown: ${label}`}>
      <summary>
        <span className="badge-neutral">Unknown</span> {label}
      </summary>
      <pre>{JSON.stringify(raw, null, 2)}</pre>
    </details>
  );
}
