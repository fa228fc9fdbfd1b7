import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sanitizeSvg } from './svgSanitizer';

const ICONS = resolve(import.meta.dirname, '../../resources/registry/icons');

describe('sanitizeSvg', () => {
  it('keeps a plain currentColor icon', () => {
    const out = sanitizeSvg(
      '<?xml version="1.0"?><!-- hi --><svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16" fill="none"><path fill="currentColor" fill-rule="evenodd" d="M0 0h16v16z"/></svg>',
    );
    expect(out).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16" fill="none"><path fill="currentColor" fill-rule="evenodd" d="M0 0h16v16z"></path></svg>',
    );
  });

  it('keeps every bundled registry icon (they only use shapes and currentColor)', () => {
    const files = readdirSync(ICONS).filter((f) => f.endsWith('.svg'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const out = sanitizeSvg(readFileSync(join(ICONS, file), 'utf8'));
      expect(out, file).toMatch(/^<svg /);
      expect(out, file).toContain('currentColor');
      expect(out, file).toContain('<path');
    }
  });

  it('drops scripts, event handlers, foreignObject, style and animation', () => {
    const out = sanitizeSvg(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)" viewBox="0 0 16 16">
      <script>alert(1)</script>
      <script><![CDATA[ alert(2) ]]></script>
      <style>path { fill: url(https://evil.example/x.svg) }</style>
      <foreignObject><div xmlns="http://www.w3.org/1999/xhtml" onclick="x()">hi</div></foreignObject>
      <path d="M0 0" onclick="steal()" onmouseover="x" style="fill:red" fill="currentColor"/>
      <set attributeName="href" to="javascript:alert(1)"/>
      <animate attributeName="fill" values="red"/>
      <a href="javascript:alert(1)"><path d="M1 1"/></a>
    </svg>`)!;
    expect(out).not.toMatch(/script|alert|onload|onclick|onmouseover|style|foreignObject|set|animate|<a|evil|steal|M1 1/i);
    expect(out).toContain('<path d="M0 0" fill="currentColor"></path>');
  });

  it('drops external references but keeps in-document ones', () => {
    const out = sanitizeSvg(`<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">
      <image href="https://tracker.example/p.png"/>
      <use xlink:href="https://evil.example/sprite.svg#a"/>
      <use href="data:image/svg+xml;base64,AAAA"/>
      <defs><linearGradient id="g"><stop offset="0" stop-color="currentColor"/></linearGradient></defs>
      <use href="#g"/>
      <rect fill="url(#g)" width="1" height="1"/>
      <rect fill="url( 'https://evil.example/f' )" mask="url(http://x/y)" width="2" height="2"/>
    </svg>`)!;
    expect(out).not.toMatch(/tracker|evil|data:|http:\/\/x/);
    expect(out).toContain('<use href="#g"></use>');
    expect(out).toContain('<rect fill="url(#g)" width="1" height="1"></rect>');
    expect(out).toContain('<rect width="2" height="2"></rect>');
    expect((out.match(/<use/g) ?? []).length).toBe(3);
  });

  it('escapes text and attribute values on the way out', () => {
    const out = sanitizeSvg('<svg xmlns="http://www.w3.org/2000/svg"><title>a &lt;b&gt; &amp; "c"</title><path d="M0 0" id="a&quot;b"/></svg>')!;
    expect(out).toContain('<title>a &lt;b&gt; &amp; "c"</title>');
    expect(out).toContain('id="a&quot;b"');
  });

  it('refuses documents that are not well-formed SVG', () => {
    expect(sanitizeSvg('<html><body>hi</body></html>')).toBeNull();
    expect(sanitizeSvg('<svg><path></svg>')).toBeNull();
    expect(sanitizeSvg('not xml at all')).toBeNull();
    expect(sanitizeSvg('<!DOCTYPE svg [<!ENTITY x "boom">]><svg>&x;</svg>')).toBeNull();
    expect(sanitizeSvg('<svg/><svg/>')).toBeNull();
    expect(sanitizeSvg('<svg>' + '<g>'.repeat(100) + '</g>'.repeat(100) + '</svg>')).toBeNull();
  });
});
