import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { closeOpenFence, parseMarkdown } from './Markdown';

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

describe('links in agent Markdown (issue 21.3)', () => {
  const html = (source: string) => renderToStaticMarkup(parseMarkdown(source));
  it('a link whose address was removed as unsafe is plain text: no <a>, nothing to click', () => {
    for (const source of [
      '[click me](javascript:alert(1))',
      '[click me](JAVASCRIPT:alert(1))',
      '[click me](data:text/html,<b>x</b>)',
      '[click me](vbscript:x)',
    ]) {
      const out = html(source);
      expect(out, source).not.toContain('<a');
      expect(out, source).toContain('click me');
    }
  });
  it('relative and non-web addresses are not links either (in the browser host they load the app again)', () => {
    for (const source of ['[file](src/app.ts)', '[top](#top)', '[mail](mailto:a@b.c)', '[x](//host/path)']) expect(html(source), source).not.toContain('<a');
  });
  it('http and https links stay links that open in a new window', () => {
    expect(html('[site](https://example.com/a?b=1)')).toContain('<a href="https://example.com/a?b=1" target="_blank" rel="noreferrer noopener"');
    expect(html('see www.example.com')).toContain('<a href="http://www.example.com"');
  });
});
