import '../agent-work/agentWork.css';
import { useMemo, useState } from 'react';
import { findFilePatch, parseGitPatch } from '../../../src-shared/diff/gitPatch';
import { Icon } from '../../ui/Icon';
import { UnknownBox } from '../../ui/UnknownBox';
import { DiffBlock } from './DiffBlock';
import type { ChangesDiff } from '../../../src-shared/session/content';

const OPERATIONS: Record<string, string> = { add: 'Added', delete: 'Deleted', modify: 'Modified', move: 'Moved', copy: 'Copied' };

/**
 * A diff given as a list of file changes (add, delete, modify, move, copy, or a future
 * operation) with an optional patch: one Monaco diff per change the patch has text for, the
 * patch itself on request, and a line for changes without text (binary files, pure moves).
 */
export function DiffChanges({ toolCallId, content, staticFirst }: { toolCallId: string; content: ChangesDiff; staticFirst?: boolean }) {
  const { changes, patch } = content;
  const patchText = patch?.text ?? null;
  const format = patch?.format ?? null;
  const files = useMemo(() => (patchText && format === 'git_patch' ? parseGitPatch(patchText) : []), [patchText, format]);
  const [showPatch, setShowPatch] = useState(false);

  return (
    <section className="diff-changes" aria-label={`Changes to ${changes.length} file${changes.length === 1 ? '' : 's'}`}>
      <ul className="diff-change-list" aria-label="Changed files">
        {changes.map((change, i) => {
          const { operation, path } = change;
          const from = change.oldPath ?? null;
          return (
            <li key={i} className={`diff-change op-${OPERATIONS[operation] ? operation : 'unknown'}`}>
              <span className="badge-neutral">{OPERATIONS[operation] ?? operation}</span> {from ? `${from} → ${path}` : path}
              {change.fileType !== undefined && change.fileType !== 'text' && <span className="muted small"> ({change.fileType})</span>}
            </li>
          );
        })}
      </ul>
      {changes.map((change, i) => {
        const { operation, path } = change;
        if (!OPERATIONS[operation]) return <UnknownBox key={i} label={`file change ${operation}`} raw={change.raw ?? change} />;
        const file = findFilePatch(files, path, change.oldPath ?? null);
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
