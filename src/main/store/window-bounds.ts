// Restoring a remembered window rectangle only where it still makes sense: on a display that
// exists now (monitors come and go), at a usable size. Pure, so it is tested without Electron.

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface WindowSize {
  readonly width: number;
  readonly height: number;
}

export const DEFAULT_WINDOW_SIZE: WindowSize = { width: 1200, height: 800 };
export const MIN_WINDOW_SIZE: WindowSize = { width: 640, height: 480 };

/** How much of the window's top strip must lie on a display so the title bar can be grabbed. */
const MIN_VISIBLE = { width: 120, height: 40 };

export function isRect(value: unknown): value is Rect {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return ['x', 'y', 'width', 'height'].every(
    (k) => typeof r[k] === 'number' && Number.isFinite(r[k]),
  );
}

/**
 * The rectangle to open with: the saved one when its title strip is on one of `workAreas`
 * (clamped to at least the minimum size and at most that display), otherwise null so the
 * caller centres a default-sized window.
 */
export function restoreBounds(saved: unknown, workAreas: readonly Rect[]): Rect | null {
  if (!isRect(saved)) return null;
  const width = Math.max(MIN_WINDOW_SIZE.width, Math.round(saved.width));
  const height = Math.max(MIN_WINDOW_SIZE.height, Math.round(saved.height));
  const titleStrip: Rect = { x: saved.x, y: saved.y, width, height: MIN_VISIBLE.height };
  const area = workAreas.find((a) => {
    const overlap = intersection(titleStrip, a);
    return (
      overlap !== null &&
      overlap.width >= Math.min(MIN_VISIBLE.width, width) &&
      overlap.height >= MIN_VISIBLE.height
    );
  });
  if (!area) return null;
  return {
    x: Math.round(saved.x),
    y: Math.max(area.y, Math.round(saved.y)),
    width: Math.min(width, area.width),
    height: Math.min(height, area.height),
  };
}

function intersection(a: Rect, b: Rect): Rect | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : null;
}
