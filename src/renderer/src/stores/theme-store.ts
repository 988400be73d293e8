// Light, dark, or as the OS says (prefers-color-scheme). A view preference only: kept in the
// window's local storage and applied as data-theme on <html>; nothing of it reaches main.
// data-theme is always resolved to 'light' or 'dark', so the stylesheets select the dark theme
// by the attribute alone and define it once.
import { create } from 'zustand';

export type ThemeChoice = 'system' | 'light' | 'dark';

const KEY = 'tandem.theme';
const CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];

function stored(): ThemeChoice {
  try {
    const value = window.localStorage.getItem(KEY);
    return CHOICES.includes(value as ThemeChoice) ? (value as ThemeChoice) : 'system';
  } catch {
    return 'system';
  }
}

const osDark = window.matchMedia('(prefers-color-scheme: dark)');
let current: ThemeChoice = stored();

function apply(choice: ThemeChoice): void {
  current = choice;
  const dark = choice === 'dark' || (choice === 'system' && osDark.matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

/** Applies the kept choice and, while it is "as the system", follows the OS when it changes. */
export function applyStoredTheme(): void {
  apply(stored());
  osDark.addEventListener('change', () => apply(current));
}

interface ThemeStore {
  readonly choice: ThemeChoice;
  choose(choice: ThemeChoice): void;
}

export const useThemeStore = create<ThemeStore>((set) => ({
  choice: current,
  choose(choice) {
    try {
      window.localStorage.setItem(KEY, choice);
    } catch {
      // Without storage the choice still holds for this window.
    }
    apply(choice);
    set({ choice });
  },
}));
