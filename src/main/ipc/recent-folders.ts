// Recently opened folders, most recent first, persisted as JSON in the data dir. Only folders the
// person chose in the folder dialog are added; the window can reopen them, never add to them.
// What the file holds is not trusted: the workspace handlers judge every entry again.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writePrivateFileAtomic } from '../store/private-files';

export interface RecentFolders {
  /** Folders that still exist, most recent first. */
  list(): Promise<string[]>;
  /** Adds (or moves to the front) a folder the person chose in the folder dialog. */
  remember(folder: string): Promise<void>;
  /** Moves a listed folder to the front; a folder not in the list is not added. */
  touch(folder: string): Promise<void>;
}

interface RecentFile {
  readonly version: 1;
  readonly folders: readonly string[];
}

const RECENT_FOLDERS_FILE = 'recent-folders.json';

export function createRecentFolders(dataDir: string, limit = 10): RecentFolders {
  const file = join(dataDir, RECENT_FOLDERS_FILE);
  // Writes are serialised so two quick opens cannot interleave and lose one.
  let queue: Promise<unknown> = Promise.resolve();

  async function read(): Promise<string[]> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      return [];
    }
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null || !('folders' in parsed)) return [];
      const folders = (parsed as { folders: unknown }).folders;
      return Array.isArray(folders)
        ? folders.filter((f): f is string => typeof f === 'string')
        : [];
    } catch {
      return []; // A corrupt file is not worth failing the welcome screen for.
    }
  }

  async function write(folders: readonly string[]): Promise<void> {
    const body: RecentFile = { version: 1, folders };
    await writePrivateFileAtomic(file, JSON.stringify(body, null, 2) + '\n');
  }

  /** `change` returns the new list, or null to leave the file as it is. */
  function update(change: (folders: string[]) => string[] | null): Promise<void> {
    const next = queue.then(async () => {
      const changed = change(await read());
      if (changed) await write(changed.slice(0, limit));
    });
    queue = next.catch(() => undefined);
    return next;
  }

  return {
    async list() {
      await queue;
      const folders = await read();
      const exists = await Promise.all(
        folders.map((f) =>
          stat(f).then(
            (s) => s.isDirectory(),
            () => false,
          ),
        ),
      );
      return folders.filter((_, i) => exists[i]);
    },
    remember: (folder) => update((folders) => [folder, ...folders.filter((f) => f !== folder)]),
    touch: (folder) =>
      update((folders) =>
        folders.includes(folder) ? [folder, ...folders.filter((f) => f !== folder)] : null,
      ),
  };
}
