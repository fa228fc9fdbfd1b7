import { join } from 'node:path';
import { z } from 'zod';
import { readJson, writeFileAtomic } from '../store/jsonFile';
import { logWarn } from '../log/mainLog';

/** A rectangle in screen coordinates (Electron's `Rectangle`). */
export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The part of an Electron `Display` the clamping needs; the primary display comes first. */
export interface DisplayArea {
  workArea: Rectangle;
}

/** What is remembered between runs, in `<data dir>/window-state.json`. */
export interface WindowState {
  /** The normal (not maximized, not full-screen) bounds. */
  bounds: Rectangle;
  maximized: boolean;
}

export const DEFAULT_SIZE = { width: 1280, height: 820 } as const;
export const MINIMUM_SIZE = { width: 720, height: 480 } as const;

/** How much of a window must overlap a display to count as "on" it (a grabbable title bar). */
const MIN_VISIBLE = { width: 120, height: 40 } as const;

function overlap(a: Rectangle, b: Rectangle): { width: number; height: number } {
  return {
    width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)),
    height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)),
  };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), Math.max(min, max));
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * Puts remembered bounds back on a screen that exists now: a monitor may have been unplugged
 * or rearranged since the window was last shown. The window keeps its place when enough of it
 * is on some display, pulled fully inside that display's work area; otherwise it is centred on
 * the primary display (the first one). Its size never exceeds the work area it lands on and,
 * where that area allows, never goes below the minimum. With no displays known, only the size
 * is kept and the OS places the window.
 */
export function clampToDisplays(
  bounds: Partial<Rectangle> | null | undefined,
  displays: readonly DisplayArea[],
  minimum: { width: number; height: number } = MINIMUM_SIZE,
): Rectangle | { width: number; height: number } {
  const width = isFiniteNumber(bounds?.width) && bounds.width > 0 ? Math.round(bounds.width) : DEFAULT_SIZE.width;
  const height = isFiniteNumber(bounds?.height) && bounds.height > 0 ? Math.round(bounds.height) : DEFAULT_SIZE.height;
  const areas = displays.map((display) => display.workArea).filter((area) => area.width > 0 && area.height > 0);
  if (areas.length === 0) return { width: Math.max(width, minimum.width), height: Math.max(height, minimum.height) };

  const placed = isFiniteNumber(bounds?.x) && isFiniteNumber(bounds?.y);
  let target: Rectangle | null = null;
  if (placed) {
    const wanted = { x: Math.round(bounds!.x!), y: Math.round(bounds!.y!), width, height };
    let best = 0;
    for (const area of areas) {
      const shared = overlap(wanted, area);
      const visible = shared.width >= Math.min(MIN_VISIBLE.width, width) && shared.height >= Math.min(MIN_VISIBLE.height, height);
      if (visible && shared.width * shared.height > best) {
        best = shared.width * shared.height;
        target = area;
      }
    }
  }
  const area = target ?? areas[0];
  const fitted = {
    width: Math.min(Math.max(width, minimum.width), area.width),
    height: Math.min(Math.max(height, minimum.height), area.height),
  };
  if (!target) {
    return {
      x: area.x + Math.floor((area.width - fitted.width) / 2),
      y: area.y + Math.floor((area.height - fitted.height) / 2),
      ...fitted,
    };
  }
  return {
    x: clamp(Math.round(bounds!.x!), area.x, area.x + area.width - fitted.width),
    y: clamp(Math.round(bounds!.y!), area.y, area.y + area.height - fitted.height),
    ...fitted,
  };
}

/** Reads a saved window state, or null for anything that is not one (never throws). */
export function parseWindowState(value: unknown): WindowState | null {
  const parsed = savedWindowState.safeParse(value);
  if (!parsed.success) return null;
  const { x, y, width, height } = parsed.data.bounds;
  return { bounds: { x, y, width, height }, maximized: parsed.data.maximized === true };
}

/** The file's shape; `maximized` that is not `true` reads as not maximized. */
const savedWindowState = z.object({
  bounds: z.object({ x: z.number(), y: z.number(), width: z.number().positive(), height: z.number().positive() }),
  maximized: z.unknown().optional(),
});

export function windowStateFile(dataDir: string): string {
  return join(dataDir, 'window-state.json');
}

export function loadWindowState(dataDir: string): WindowState | null {
  return parseWindowState(readJson<unknown>(windowStateFile(dataDir), null).value);
}

export function saveWindowState(dataDir: string, state: WindowState): void {
  try {
    writeFileAtomic(windowStateFile(dataDir), `${JSON.stringify(state, null, 2)}\n`);
  } catch (error) {
    // Losing the window position is not worth an error on quit, only a log line.
    logWarn('Saving the window position', error);
  }
}
