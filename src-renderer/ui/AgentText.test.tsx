import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { PendingPermission } from '../../src-shared/session/state';
import { PermissionSubject } from '../features/permission/PermissionSubject';
import { AgentText, revealBidi } from './AgentText';

const CONTROLS = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C'];
const anyControl = new RegExp(`[${CONTROLS.join('')}]`);

describe('agent text: isolated, and bidirectional controls shown, not obeyed (issue 21.4)', () => {
  it('"Open \\u202Eexe.txt" reads in the order it was written, with the override visible and named', () => {
    const html = renderToStaticMarkup(<AgentText text={'Open \u202Eexe.txt'} />);
    expect(html).toMatch(/^<bdi>/);
    expect(html).not.toMatch(anyControl);
    expect(html).toContain('Open <span class="bidi-control" role="img" aria-label="hidden character: right-to-left override"');
    expect(html).toContain('>⟨U+202E⟩</span>exe.txt</bdi>');
  });

  it('every embedding, override, isolate and mark character becomes a marker; other text is untouched', () => {
    for (const char of CONTROLS) {
      const shown = revealBidi(`a${char}b`);
      expect(shown).not.toMatch(anyControl);
      expect(shown).toBe(`a⟨U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩b`);
      expect(renderToStaticMarkup(<AgentText text={`a${char}b`} />)).not.toMatch(anyControl);
    }
    expect(revealBidi('שלום world 日本語 👩‍👩‍👧')).toBe('שלום world 日本語 👩‍👩‍👧');
    expect(renderToStaticMarkup(<AgentText text="plain" />)).toBe('<bdi>plain</bdi>');
  });

  it('the permission subject: the command, its folder and the explanation show the controls (the card itself: e2e/ui-agent-text.spec.ts)', () => {
    const permission: PendingPermission = {
      requestId: 'r1',
      toolCallId: 'tc',
      tool: { title: 'Open \u202Eexe.txt' },
      title: 'Open \u202Eexe.txt',
      description: 'Opens \u2067the file\u2069 for you',
      options: [
        { optionId: 'yes', name: 'Allow \u202Eecno', kind: 'allow_once' },
        { optionId: 'no', name: 'Reject', kind: 'reject_once' },
      ],
      subject: { type: 'command', command: 'open \u202Eexe.txt', cwd: '/w/\u202Eabc' },
    };
    const subject = renderToStaticMarkup(<PermissionSubject permission={permission} />);
    expect(subject).not.toMatch(anyControl);
    expect(subject).toContain('⟨U+202E⟩</span>exe.txt</bdi>');
    expect(subject).toContain('⟨U+2067⟩</span>the file<span');
    expect(subject).toContain('<bdi>in /w/<span class="bidi-control"');
  });
});
