import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { PendingPermission } from '../../../src-shared/session/state';
import { PermissionSubject } from './PermissionSubject';

const base: PendingPermission = { requestId: 'r1', toolCallId: 'tc', tool: {}, options: [] };

describe('PermissionSubject', () => {
  it('a command subject shows the exact command, its folder and the explanation', () => {
    const html = renderToStaticMarkup(
      <PermissionSubject
        permission={{
          ...base,
          title: 'Run npm test?',
          description: 'The tests write to /tmp.',
          subject: { type: 'command', command: 'npm test -- --watch', cwd: '/w' },
        }}
      />,
    );
    expect(html).toContain('aria-label="Command to run"');
    expect(html).toContain('npm test -- --watch');
    expect(html).toContain('in /w');
    expect(html).toContain('The tests write to /tmp.');
  });

  it('an unknown subject is kept and shown raw; a tool-call subject adds nothing (the card is the tool call)', () => {
    const unknown = renderToStaticMarkup(
      <PermissionSubject permission={{ ...base, subject: { type: 'unknown', typeName: '_x_door', raw: { type: '_x_door', door: 'pod bay' } } }} />,
    );
    expect(unknown).toContain('Unknown: permission subject _x_door');
    expect(unknown).toContain('pod bay');
    expect(renderToStaticMarkup(<PermissionSubject permission={{ ...base, subject: { type: 'tool_call', toolCallId: 'tc' } }} />)).toBe('');
  });

  it('a v1 permission (no subject) renders nothing extra', () => {
    expect(renderToStaticMarkup(<PermissionSubject permission={base} />)).toBe('');
  });
});
