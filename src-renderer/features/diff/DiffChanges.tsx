import '../agent-work/agentWork.css';
import { useMemo, useState } from 'react';
import { findFilePatch, parseGitPatch } from '../../../src-shared/diff/gitPatch';
import { Icon } from '../../ui/Icon';
import { UnknownBox } from '../../ui/UnknownBox';
import { DiffBlock } from './DiffBlock';
import { isObject } from '../../../src-shared/acp/read';
import type { RawObject } from '../../../src-shared/session/raw';

const OPERATIONS: Record<string, string> = { add: 'Added', delete: 'Deleted', modify: 'Modified', move: 'Moved', copy: 'Copied' };

/**
 * A diff given as a list of file changes (add, delete, modify, move, copy, or a future
 * operation) with an optional patch: one Monaco diff per change the patch has text for, the
 * patch itself on request, and a line for changes without text (binary files, pure moves).
 */
export function DiffChanges({ toolCallId, content, staticFirst }: { toolCallId: string; content: RawObject; staticFirst?: boolean }) {
  const changes = (Array.isArray(content.changes) ? content.changes : []).filter((c): c is RawObject => typeof c === 'object' && c !== null);
  const patch = isObject(content.patch) ? content.patch : null;
  // The SDK's schema names the patch text `text`; the seed draft named it `diff`.
  const patchText = typeof patch?.text === 'string' ? patch.text : typeof patch?.diff === 'string' ? patch.diff : null;
  const format = typeof patch?.format === 'string' ? patch.format : null;
  const files = useMemo(() => (patchText && format === 'git_patch' ? parseGitPatch(patchText) : []), [patchText, format]);
  const [showPatch, setShowPatch] = useState(false);

  return (
    <section className="diff-changes" aria-label={`Changes to ${changes.length} file${changes.length === 1 ? '' : 's'}`}>
      <ul className="diff-change-list" aria-label="Changed files">
        {changes.map((change, i) => {
          const operation = String(change.operation ?? '');
          const path = String(change.path ?? '');
          const from = typeof change.oldPath === 'string' ? change.oldPath : null;
          return (
            <li key={i} className={`diff-change op-${OPERATIONS[operation] ? operation : 'unknown'}`}>
              <span className="badge-neutral">{OPERATIONS[operation] ?? operation}</span> {from ? `${from} → ${path}` : path}
              {typeof change.fileType === 'string' && change.fileType !== 'text' && <span className="muted small"> ({change.fileType})</span>}
            </li>
          );
        })}
      </ul>
      {changes.map((change, i) => {
        const operation = String(change.operation ?? '');
        const path = String(change.path ?? '');
        if (!OPERATIONS[operation]) return <UnknownBox key={i} label={`file change ${operation}`} raw={change} />;
        const file = findFilePatch(files, path, typeof change.oldPath === 'string' ? change.oldPath : null);
        if (!file || file.hunks === 0) return null;
        return (
          <DiffBlock
            key={i}
            staticFirst={staticFirst}
            modelKey={`${toolCallId}:${i}:${path}`}
            path={path}
            oldText={operation === 'add' ? null : (file.oldText ?? '')}
            newText={file.newText ?? ''}
            deleted={operation === 'delete'}
          />
        );
      })}
      {patchText !== null && (
        <div className="diff-patch">
          <button type="button" className="disclosure small" aria-expanded={showPatch} onClick={() => setShowPatch(!showPatch)}>
            <Icon name={showPatch ? 'chevronDown' : 'chevronRight'} /> {format === 'git_patch' ? 'Git patch' : `Patch (${format ?? 'unknown format'})`}
          </button>
          {showPatch && <PatchText text={patchText} />}
        </div>
      )}
    </section>
  );
}

/** The patch as text, lines coloured by what they do. */
export function PatchText({ text }: { text: string }) {
  return (
    <pre className="patch-text" aria-label="Patch text">
      {text.split('\n').map((line, i) => (
        <span key={i} className={lineClass(line)}>
          {line}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

function lineClass(line: string): string {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('diff --git')) return 'patch-file';
  if (line.startsWith('@@')) return 'patch-hunk';
  if (line.startsWith('+')) return 'patch-add';
  if (line.startsWith('-')) return 'patch-del';
  return 'patch-ctx';
}
