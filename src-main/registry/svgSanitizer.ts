import { createRequire } from 'node:module';
import type { Tag } from 'sax';

type Sax = typeof import('sax');
let saxModule: Sax | undefined;
/** `sax`, required at the first icon sanitized: icons are sanitized when shown (issue 23, cold start). */
const sax = (): Sax => (saxModule ??= createRequire(import.meta.url)('sax') as Sax);

/**
 * Sanitizes an agent icon (SVG) before the renderer shows it as markup.
 *
 * Strict allowlist: the document is parsed with `sax` (strict XML, no DOM needed) and written
 * out again from scratch, so nothing the parser did not understand can pass through. Kept are
 * plain shapes, groups, gradients, clip paths and masks with their presentation attributes,
 * `currentColor` included. Dropped, with their whole subtree: scripts, `style`, `foreignObject`,
 * `image`, links, animation (it can rewrite attributes), filters, anything namespaced. Dropped
 * attributes: event handlers, `style`, any `href` except an in-document `#id`, and any value
 * with `url(...)` that is not `url(#id)`, or with `javascript:` / `data:` / `expression(`.
 * Returns null when the input is not a well-formed SVG document.
 */

const MAX_INPUT = 256 * 1024;
const MAX_ELEMENTS = 5000;
const MAX_DEPTH = 64;

const ELEMENTS = new Set([
  'svg',
  'g',
  'path',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'rect',
  'defs',
  'clipPath',
  'mask',
  'linearGradient',
  'radialGradient',
  'stop',
  'title',
  'desc',
  'symbol',
  'use',
  'text',
  'tspan',
]);

const ATTRIBUTES = new Set([
  'id',
  'class',
  'd',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'fx',
  'fy',
  'width',
  'height',
  'viewBox',
  'points',
  'pathLength',
  'preserveAspectRatio',
  'version',
  'fill',
  'fill-rule',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-opacity',
  'opacity',
  'transform',
  'clip-path',
  'clip-rule',
  'clipPathUnits',
  'mask',
  'maskUnits',
  'maskContentUnits',
  'gradientUnits',
  'gradientTransform',
  'spreadMethod',
  'offset',
  'stop-color',
  'stop-opacity',
  'color',
  'display',
  'visibility',
  'vector-effect',
  'shape-rendering',
  'text-anchor',
  'dominant-baseline',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'letter-spacing',
  'dx',
  'dy',
]);

/** `href` / `xlink:href` survive only as references inside the document. */
const HREF = new Set(['href', 'xlink:href']);
const SAFE_HREF = /^#[A-Za-z_][\w.:-]*$/;

function isSafeValue(value: string): boolean {
  const compact = value.replace(/[\s\u0000-\u001f]+/g, '').toLowerCase();
  if (/javascript:|vbscript:|data:|expression\(|@import/.test(compact)) return false;
  // url(...) may only point inside the document: url(#gradient).
  for (const match of compact.matchAll(/url\(([^)]*)\)?/g)) {
    const target = (match[1] ?? '').replace(/^['"]|['"]$/g, '');
    if (!/^#[a-z_][\w.:-]*$/i.test(target)) return false;
  }
  return value.length <= 100_000;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function escapeText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function sanitizeSvg(input: string): string | null {
  if (input.length > MAX_INPUT) return null;
  const parser = sax().parser(true, { trim: false, normalize: false, xmlns: false, position: false });
  const out: string[] = [];
  /** Per open element: whether it was written (false: dropped, with all it contains). */
  const stack: boolean[] = [];
  let skipping = 0;
  let elements = 0;
  let rootSeen = false;
  let failed = false;

  parser.onerror = () => {
    failed = true;
  };
  parser.onopentag = (node) => {
    const tag = node as Tag;
    elements += 1;
    if (elements > MAX_ELEMENTS || stack.length >= MAX_DEPTH) failed = true;
    if (stack.length === 0) {
      if (rootSeen || tag.name !== 'svg') failed = true;
      rootSeen = true;
    }
    const allowed = !failed && skipping === 0 && ELEMENTS.has(tag.name);
    stack.push(allowed);
    if (!allowed) {
      skipping += 1;
      return;
    }
    const attributes: string[] = [];
    if (tag.name === 'svg' && stack.length === 1) attributes.push('xmlns="http://www.w3.org/2000/svg"');
    for (const [name, rawValue] of Object.entries(tag.attributes)) {
      const value = String(rawValue);
      if (HREF.has(name)) {
        if (SAFE_HREF.test(value.trim())) attributes.push(`href="${escapeAttribute(value.trim())}"`);
        continue;
      }
      if (!ATTRIBUTES.has(name) || !isSafeValue(value)) continue;
      attributes.push(`${name}="${escapeAttribute(value)}"`);
    }
    out.push(`<${tag.name}${attributes.length ? ' ' + attributes.join(' ') : ''}>`);
  };
  parser.onclosetag = (name) => {
    const written = stack.pop();
    if (written) out.push(`</${name}>`);
    else skipping -= 1;
  };
  parser.ontext = (text) => {
    if (skipping === 0 && stack.length > 0) out.push(escapeText(text));
  };
  parser.oncdata = (text) => {
    if (skipping === 0 && stack.length > 0) out.push(escapeText(text));
  };
  // Comments, processing instructions and the doctype (entity declarations) are dropped.

  try {
    parser.write(input).close();
  } catch {
    return null;
  }
  if (failed || !rootSeen || stack.length !== 0) return null;
  return out.join('').trim();
}
