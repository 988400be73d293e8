import { describe, expect, it } from 'vitest';
import { MIN_WINDOW_SIZE, restoreBounds, type Rect } from './window-bounds';

const laptop: Rect = { x: 0, y: 0, width: 1440, height: 900 };
const rightMonitor: Rect = { x: 1440, y: 0, width: 2560, height: 1440 };

describe('restoreBounds', () => {
  it.each<[string, unknown, readonly Rect[], Rect | null]>([
    [
      'keeps a window on the laptop',
      { x: 100, y: 80, width: 1000, height: 700 },
      [laptop],
      { x: 100, y: 80, width: 1000, height: 700 },
    ],
    [
      'keeps a window on a second monitor',
      { x: 2000, y: 100, width: 1200, height: 800 },
      [laptop, rightMonitor],
      { x: 2000, y: 100, width: 1200, height: 800 },
    ],
    [
      'drops a window whose monitor is gone',
      { x: 2000, y: 100, width: 1200, height: 800 },
      [laptop],
      null,
    ],
    [
      'drops a window whose title bar is above the screen',
      { x: 100, y: -500, width: 800, height: 600 },
      [laptop],
      null,
    ],
    [
      'drops a window barely peeking in from the left',
      { x: -790, y: 100, width: 800, height: 600 },
      [laptop],
      null,
    ],
    [
      'shrinks a window larger than its display',
      { x: 0, y: 0, width: 3000, height: 2000 },
      [laptop],
      { x: 0, y: 0, width: 1440, height: 900 },
    ],
    [
      'grows a window below the minimum size',
      { x: 10, y: 10, width: 100, height: 50 },
      [laptop],
      { x: 10, y: 10, ...MIN_WINDOW_SIZE },
    ],
    ['ignores garbage', { x: 'a', y: 0, width: 1, height: 1 }, [laptop], null],
    ['ignores NaN', { x: Number.NaN, y: 0, width: 800, height: 600 }, [laptop], null],
    ['ignores nothing saved', undefined, [laptop], null],
    ['ignores no displays', { x: 0, y: 0, width: 800, height: 600 }, [], null],
  ])('%s', (_name, saved, areas, expected) => {
    expect(restoreBounds(saved, areas)).toEqual(expected);
  });
});
