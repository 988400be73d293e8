// Light, dark, or as the OS says (prefers-color-scheme). A view preference only: kept in the
// window's local storage and applied as data-theme on <html>; nothing of it reaches main.
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

function apply(choice: ThemeChoice): void {
  const root = document.documentElement;
  if (choice === 'system') delete root.dataset.theme;
  else root.dataset.theme = choice;
}

export function applyStoredTheme(): void {
  apply(stored());
}

interface ThemeStore {
  readonly choice: ThemeChoice;
  choose(choice: ThemeChoice): void;
}

export const useThemeStore = create<ThemeStore>((set) => ({
  choice: stored(),
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
