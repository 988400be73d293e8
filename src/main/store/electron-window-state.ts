// Remembers the window's size, position and maximised state across launches (electron-store),
// validated against the displays that exist at launch.
import { screen, type BrowserWindow } from 'electron';
import Store from 'electron-store';
import { DEFAULT_WINDOW_SIZE, isRect, restoreBounds, type Rect } from './window-bounds';

interface WindowStateFile {
  bounds?: Rect;
  maximized?: boolean;
}

export interface WindowState {
  /** Bounds to create the window with; x/y absent means "let the OS centre it". */
  readonly initial: { width: number; height: number; x?: number; y?: number };
  readonly maximized: boolean;
  /** Saves the window's state whenever it moves, resizes or closes. */
  track(window: BrowserWindow): void;
}

export function loadWindowState(): WindowState {
  const store = new Store<WindowStateFile>({ name: 'window-state' });
  const areas = screen.getAllDisplays().map((d) => d.workArea);
  const restored = restoreBounds(store.get('bounds'), areas);
  const maximized = store.get('maximized') === true;

  return {
    initial: restored ?? { ...DEFAULT_WINDOW_SIZE },
    maximized,
    track(window) {
      let timer: NodeJS.Timeout | undefined;
      const save = (): void => {
        if (window.isDestroyed()) return;
        const bounds = window.getNormalBounds();
        if (isRect(bounds)) store.set('bounds', bounds);
        store.set('maximized', window.isMaximized());
      };
      // Moves and resizes arrive in bursts; writing once they settle is enough.
      const saveSoon = (): void => {
        clearTimeout(timer);
        timer = setTimeout(save, 400);
      };
      window.on('resize', saveSoon);
      window.on('move', saveSoon);
      window.on('close', () => {
        clearTimeout(timer);
        save();
      });
    },
  };
}
