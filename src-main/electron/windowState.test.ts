import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clampToDisplays, DEFAULT_SIZE, loadWindowState, MINIMUM_SIZE, parseWindowState, saveWindowState, windowStateFile } from './windowState';

const primary = { workArea: { x: 0, y: 25, width: 1920, height: 1055 } };
const right = { workArea: { x: 1920, y: 0, width: 2560, height: 1440 } };
const left = { workArea: { x: -1280, y: 200, width: 1280, height: 800 } };

describe('clampToDisplays', () => {
  it('keeps bounds that are fully on a display', () => {
    expect(clampToDisplays({ x: 100, y: 100, width: 1200, height: 800 }, [primary, right])).toEqual({ x: 100, y: 100, width: 1200, height: 800 });
    expect(clampToDisplays({ x: 2000, y: 50, width: 1600, height: 1000 }, [primary, right])).toEqual({ x: 2000, y: 50, width: 1600, height: 1000 });
    expect(clampToDisplays({ x: -1200, y: 250, width: 1000, height: 700 }, [primary, left])).toEqual({ x: -1200, y: 250, width: 1000, height: 700 });
  });

  it('pulls a window that hangs over an edge back inside the display it is mostly on', () => {
    expect(clampToDisplays({ x: 1500, y: 900, width: 1000, height: 700 }, [primary])).toEqual({ x: 920, y: 380, width: 1000, height: 700 });
    // Above the menu bar / work area.
    expect(clampToDisplays({ x: 10, y: 0, width: 800, height: 600 }, [primary])).toEqual({ x: 10, y: 25, width: 800, height: 600 });
  });

  it('moves a window from an unplugged display to the centre of the primary one', () => {
    const remembered = { x: 3000, y: 300, width: 1400, height: 900 };
    expect(clampToDisplays(remembered, [primary])).toEqual({ x: 260, y: 25 + 77, width: 1400, height: 900 });
  });

  it('treats a sliver on a display as off-screen', () => {
    // Only 50 px of it would show on the primary display: not enough to grab it.
    expect(clampToDisplays({ x: 1870, y: 100, width: 800, height: 600 }, [primary])).toEqual({ x: 560, y: 25 + 227, width: 800, height: 600 });
  });

  it('picks the display that holds most of a window spanning two', () => {
    const spanning = { x: 1500, y: 100, width: 1200, height: 800 }; // 420 px on primary, 780 px on right
    expect(clampToDisplays(spanning, [primary, right])).toEqual({ x: 1920, y: 100, width: 1200, height: 800 });
  });

  it('shrinks a window larger than its display, and keeps the minimum size where it fits', () => {
    expect(clampToDisplays({ x: 0, y: 25, width: 5000, height: 3000 }, [primary])).toEqual({ x: 0, y: 25, width: 1920, height: 1055 });
    expect(clampToDisplays({ x: 10, y: 30, width: 100, height: 50 }, [primary])).toEqual({ x: 10, y: 30, ...MINIMUM_SIZE });
    const tiny = { workArea: { x: 0, y: 0, width: 640, height: 400 } };
    expect(clampToDisplays({ x: 0, y: 0, width: 1280, height: 820 }, [tiny])).toEqual({ x: 0, y: 0, width: 640, height: 400 });
  });

  it('centres the default size when nothing is remembered or the numbers are bad', () => {
    const centred = { x: Math.floor((1920 - DEFAULT_SIZE.width) / 2), y: 25 + Math.floor((1055 - DEFAULT_SIZE.height) / 2), ...DEFAULT_SIZE };
    expect(clampToDisplays(null, [primary, right])).toEqual(centred);
    expect(clampToDisplays({ x: Number.NaN, y: 5, width: Number.POSITIVE_INFINITY, height: -3 }, [primary])).toEqual(centred);
  });

  it('keeps only the size when no display is known', () => {
    expect(clampToDisplays({ x: 5, y: 5, width: 1000, height: 700 }, [])).toEqual({ width: 1000, height: 700 });
  });

  it('rounds fractional coordinates (scaled displays)', () => {
    expect(clampToDisplays({ x: 100.4, y: 100.6, width: 1000.5, height: 700.2 }, [primary])).toEqual({ x: 100, y: 101, width: 1001, height: 700 });
  });
});

describe('window state file', () => {
  it('parses only well-formed state', () => {
    expect(parseWindowState({ bounds: { x: 1, y: 2, width: 3, height: 4 }, maximized: true })).toEqual({
      bounds: { x: 1, y: 2, width: 3, height: 4 },
      maximized: true,
    });
    expect(parseWindowState({ bounds: { x: 1, y: 2, width: 3, height: 4 } })).toEqual({ bounds: { x: 1, y: 2, width: 3, height: 4 }, maximized: false });
    for (const bad of [
      null,
      7,
      'x',
      {},
      { bounds: null },
      { bounds: { x: 1, y: 2, width: 3 } },
      { bounds: { x: '1', y: 2, width: 3, height: 4 } },
      { bounds: { x: 1, y: 2, width: 0, height: 4 } },
    ]) {
      expect(parseWindowState(bad)).toBeNull();
    }
  });

  it('saves and loads through <data dir>/window-state.json, surviving a corrupt file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-window-'));
    expect(loadWindowState(dir)).toBeNull();
    saveWindowState(dir, { bounds: { x: 10, y: 20, width: 900, height: 700 }, maximized: false });
    expect(JSON.parse(readFileSync(windowStateFile(dir), 'utf8'))).toEqual({ bounds: { x: 10, y: 20, width: 900, height: 700 }, maximized: false });
    expect(loadWindowState(dir)).toEqual({ bounds: { x: 10, y: 20, width: 900, height: 700 }, maximized: false });
    writeFileSync(windowStateFile(dir), '{ not json');
    expect(loadWindowState(dir)).toBeNull();
  });
});
