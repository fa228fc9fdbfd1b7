#!/usr/bin/env node
// Renders the one source image, resources/icon.svg, into every icon the packagers need:
//   resources/icons/<n>x<n>.png  16…1024 (Linux icon set; electron-builder reads the folder)
//   resources/icon.png           1024 (fallback for every platform)
//   resources/icon.ico           16, 24, 32, 48, 64, 128 as 32-bit BMP and 256 as PNG (Windows, NSIS)
//   resources/icon.icns          16…1024 incl. @2x (macOS)
// The generated files are committed, so packaging never needs this script; run it (`npm run icons`)
// after changing icon.svg. ICO and ICNS are written here directly: both are simple containers.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const resources = join(root, 'resources');
const svg = readFileSync(join(resources, 'icon.svg'));

const PNG_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];

/** Renders the SVG at `size` px square: `{ png, rgba }`, where rgba is straight (not premultiplied). */
function render(size) {
  const image = new Resvg(svg, { fitTo: { mode: 'width', value: size }, font: { loadSystemFonts: false } }).render();
  if (image.width !== size || image.height !== size) throw new Error(`icon.svg rendered as ${image.width}x${image.height}, expected ${size}x${size}`);
  // resvg hands out premultiplied RGBA; BMP icon entries want straight alpha.
  const rgba = Buffer.from(image.pixels);
  for (let i = 0; i < rgba.length; i += 4) {
    const alpha = rgba[i + 3];
    if (alpha === 0 || alpha === 255) continue;
    for (let c = 0; c < 3; c++) rgba[i + c] = Math.min(255, Math.round((rgba[i + c] * 255) / alpha));
  }
  return { png: image.asPng(), rgba };
}

/** A 32-bit BGRA DIB as stored in an ICO entry: header with doubled height, bottom-up pixels, AND mask. */
function bmpEntry(size, rgba) {
  const maskRow = Math.ceil(size / 32) * 4;
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(size, 4);
  header.writeInt32LE(size * 2, 8); // XOR bitmap + AND mask
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  header.writeUInt32LE(0, 16); // BI_RGB
  header.writeUInt32LE(size * size * 4 + maskRow * size, 20);
  const pixels = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const from = (y * size + x) * 4;
      const to = ((size - 1 - y) * size + x) * 4;
      pixels[to] = rgba[from + 2];
      pixels[to + 1] = rgba[from + 1];
      pixels[to + 2] = rgba[from];
      pixels[to + 3] = rgba[from + 3];
    }
  }
  // The alpha channel decides transparency; an all-zero AND mask leaves it to alpha.
  return Buffer.concat([header, pixels, Buffer.alloc(maskRow * size)]);
}

/** An ICO file from `[{ size, data }]` (data: a BMP entry or a PNG). */
function encodeIco(images) {
  const directory = Buffer.alloc(6 + 16 * images.length);
  directory.writeUInt16LE(0, 0);
  directory.writeUInt16LE(1, 2); // 1 = icon
  directory.writeUInt16LE(images.length, 4);
  let offset = directory.length;
  images.forEach(({ size, data }, index) => {
    const at = 6 + index * 16;
    directory.writeUInt8(size >= 256 ? 0 : size, at); // 0 means 256
    directory.writeUInt8(size >= 256 ? 0 : size, at + 1);
    directory.writeUInt8(0, at + 2);
    directory.writeUInt8(0, at + 3);
    directory.writeUInt16LE(1, at + 4);
    directory.writeUInt16LE(32, at + 6);
    directory.writeUInt32LE(data.length, at + 8);
    directory.writeUInt32LE(offset, at + 12);
    offset += data.length;
  });
  return Buffer.concat([directory, ...images.map((image) => image.data)]);
}

/** Apple's PackBits variant for is32/il32 channels; literal runs only, which every reader accepts. */
function packChannel(bytes) {
  const out = [];
  for (let i = 0; i < bytes.length; i += 128) {
    const run = bytes.subarray(i, Math.min(i + 128, bytes.length));
    out.push(Buffer.from([run.length - 1]), run);
  }
  return Buffer.concat(out);
}

/** The legacy 24-bit RGB (`is32`/`il32`) and 8-bit mask (`s8mk`/`l8mk`) pair, for old readers. */
function legacyIcns(rgba) {
  const count = rgba.length / 4;
  const channel = (c) => Buffer.from(Array.from({ length: count }, (_, i) => rgba[i * 4 + c]));
  return { rgb: Buffer.concat([packChannel(channel(0)), packChannel(channel(1)), packChannel(channel(2))]), mask: channel(3) };
}

/** An ICNS file from `[{ type, data }]`. */
function encodeIcns(entries) {
  const chunks = entries.map(({ type, data }) => {
    const header = Buffer.alloc(8);
    header.write(type, 0, 'ascii');
    header.writeUInt32BE(data.length + 8, 4);
    return Buffer.concat([header, data]);
  });
  const header = Buffer.alloc(8);
  header.write('icns', 0, 'ascii');
  header.writeUInt32BE(8 + chunks.reduce((sum, chunk) => sum + chunk.length, 0), 4);
  return Buffer.concat([header, ...chunks]);
}

const rendered = new Map(PNG_SIZES.map((size) => [size, render(size)]));
const png = (size) => rendered.get(size).png;

mkdirSync(join(resources, 'icons'), { recursive: true });
for (const size of PNG_SIZES) writeFileSync(join(resources, 'icons', `${size}x${size}.png`), png(size));
writeFileSync(join(resources, 'icon.png'), png(1024));

writeFileSync(
  join(resources, 'icon.ico'),
  encodeIco([...[16, 24, 32, 48, 64, 128].map((size) => ({ size, data: bmpEntry(size, rendered.get(size).rgba) })), { size: 256, data: png(256) }]),
);

const small = legacyIcns(rendered.get(16).rgba);
const large = legacyIcns(rendered.get(32).rgba);
writeFileSync(
  join(resources, 'icon.icns'),
  encodeIcns([
    { type: 'is32', data: small.rgb },
    { type: 's8mk', data: small.mask },
    { type: 'il32', data: large.rgb },
    { type: 'l8mk', data: large.mask },
    { type: 'ic11', data: png(32) }, // 16@2x
    { type: 'ic12', data: png(64) }, // 32@2x
    { type: 'ic07', data: png(128) },
    { type: 'ic13', data: png(256) }, // 128@2x
    { type: 'ic08', data: png(256) },
    { type: 'ic14', data: png(512) }, // 256@2x
    { type: 'ic09', data: png(512) },
    { type: 'ic10', data: png(1024) }, // 512@2x
  ]),
);

console.log(`icons written to ${resources}: ${PNG_SIZES.map((size) => `${size}x${size}.png`).join(', ')}, icon.png, icon.ico, icon.icns`);
