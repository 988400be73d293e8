// The changes panel: the files this session changed, each with its diff against the session's
// start, and reverting them (one, or all). Main computes both from its undo journal.
import { create } from 'zustand';
import type { ChangedFile } from '../../../shared/api';
import { errorMessage } from '../error-message';

interface ChangesStore {
  readonly open: boolean;
  readonly files: readonly ChangedFile[] | null;
  readonly loading: boolean;
  /** What the last revert did, or why it did not. */
  readonly outcome: { readonly ok: boolean; readonly message: string } | null;
  readonly busy: boolean;
  toggle(open?: boolean): void;
  refresh(): Promise<void>;
  revert(paths: readonly string[]): Promise<void>;
  clear(): void;
}

export const useChangesStore = create<ChangesStore>((set, get) => ({
  open: false,
  files: null,
  loading: false,
  outcome: null,
  busy: false,
  toggle(open) {
    const next = open ?? !get().open;
    set({ open: next, outcome: null });
    if (next) void get().refresh();
  },
  async refresh() {
    set({ loading: true });
    try {
      set({ files: await window.tandem.sessionChanges() });
    } catch (error) {
      set({ outcome: { ok: false, message: errorMessage(error) } });
    } finally {
      set({ loading: false });
    }
  },
  async revert(paths) {
    set({ busy: true, outcome: null });
    try {
      const outcome = await window.tandem.revertFiles(paths);
      set({ outcome: { ok: outcome.ok, message: outcome.message } });
    } catch (error) {
      set({ outcome: { ok: false, message: errorMessage(error) } });
    } finally {
      set({ busy: false });
    }
    await get().refresh();
  },
  clear: () => set({ open: false, files: null, outcome: null }),
}));
