import { memo } from 'react';
import type { Json } from '../../../src-shared/json';

/** A JSON value as a tree of disclosures (objects and arrays open two levels deep). */
export const JsonTree = memo(function JsonTree({ value, name, depth = 0 }: { value: Json; name?: string; depth?: number }) {
  const label = name !== undefined ? <span className="json-key">{name}: </span> : null;
  if (value === null || typeof value !== 'object') {
    return (
      <div className="json-leaf">
        {label}
        <span className={`json-${value === null ? 'null' : typeof value}`}>{JSON.stringify(value)}</span>
      </div>
    );
  }
  const entries = Array.isArray(value) ? value.map((item, i) => [String(i), item] as const) : Object.entries(value);
  const summary = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  return (
    <details className="json-node" open={depth < 2}>
      <summary>
        {label}
        <span className="muted">{summary}</span>
      </summary>
      <div className="json-children">
        {entries.map(([key, item]) => (
          <JsonTree key={key} name={key} value={item} depth={depth + 1} />
        ))}
      </div>
    </details>
  );
});
