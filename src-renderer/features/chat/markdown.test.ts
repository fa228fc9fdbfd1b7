import { describe, expect, it } from 'vitest';
import { closeOpenFence } from './Markdown';

describe('closeOpenFence (streaming Markdown)', () => {
  it('closes a fence that is still open, with the same marker', () => {
    expect(closeOpenFence('text\n```js\nconst a')).toBe('text\n```js\nconst a\n```');
    expect(closeOpenFence('~~~~\ncode\n')).toBe('~~~~\ncode\n~~~~');
  });
  it('leaves closed or absent fences alone', () => {
    expect(closeOpenFence('```\na\n```\nafter')).toBe('```\na\n```\nafter');
    expect(closeOpenFence('no code here')).toBe('no code here');
    expect(closeOpenFence('````\n```\nstill inside\n')).toBe('````\n```\nstill inside\n````');
  });
});
