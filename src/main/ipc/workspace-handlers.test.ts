// A compromised window may call `openFolder` with any path. Main opens only folders the person
// chose in the folder dialog (or the recent list those choices built), and never /, the home
// folder, a system folder or one holding Tandem's own data, whichever way the path arrives.
import {
  mkdir,
  mkdtemp,
  readFile,
  realpath,
  rm,
  symlink,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GrantBook } from '../permissions/grant-book';
import { JsonFilePermissionsStore } from '../permissions/project-permissions-store';
import { JsonFileSettingsStore } from '../store/provider-settings';
import { MemorySecretStore } from '../store/secret-store';
import { createHandlers, type HandlerDeps, type TandemBackend } from './create-handlers';
import { createValidatedDispatcher, type InvokeDispatcher } from './validated-handlers';
import { notChosenMessage } from './workspace-handlers';

let root: string;
let dataDir: string;
let home: string;
let project: string;
/** What the stand-in for the native folder dialog answers. */
let chosen: string | null;
let backend: TandemBackend;
let call: InvokeDispatcher;

function start(overrides: Partial<HandlerDeps> = {}): void {
  backend = createHandlers({
    appName: 'Tandem',
    appVersion: '0',
    dataDir,
    home,
    chooseFolder: async () => chosen,
    confirm: async () => true,
    sandboxState: () => ({ kind: 'bwrap', available: true, description: 'bubblewrap' }),
    settings: new JsonFileSettingsStore(dataDir),
    secrets: new MemorySecretStore(),
    permissions: new JsonFilePermissionsStore(dataDir),
    grants: new GrantBook(),
    ...overrides,
  });
  // The window's way in: the same validation wrapper as in Electron.
  call = createValidatedDispatcher(backend.handlers);
}

async function choose(folder: string): Promise<unknown> {
  chosen = folder;
  try {
    return await call('chooseFolder', []);
  } finally {
    chosen = null;
  }
}

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'tandem-open-')));
  dataDir = join(root, 'data');
  home = join(root, 'home');
  project = join(home, 'code', 'shop');
  await mkdir(project, { recursive: true });
  await mkdir(join(dataDir, 'projects', 'x'), { recursive: true });
  await symlink('/etc', join(root, 'link-to-etc'));
  chosen = null;
  start();
});

afterEach(async () => {
  await backend.dispose();
  await rm(root, { recursive: true, force: true });
});

/** [name, path from the test's folders, what the refusal says] */
const FORBIDDEN: readonly [string, () => string, RegExp][] = [
  ['the file system root', () => '/', /^Cannot open "\/": it is the root of a file system\./],
  ['the home folder', () => home, /it is your home folder/],
  ['a folder around the home folder', () => root, /it contains your home folder/],
  ['/etc', () => '/etc', /^Cannot open "\/etc": \/etc is a system folder\./],
  ['/usr/bin', () => '/usr/bin', /inside \/usr, a system folder/],
  ['/proc', () => '/proc', /\/proc is a system folder/],
  [
    'a symlink to /etc',
    () => join(root, 'link-to-etc'),
    /^Cannot open ".*link-to-etc" \(it leads to \/etc\): \/etc is a system folder\./,
  ],
  [
    "Tandem's data folder",
    () => dataDir,
    /it is Tandem's own data folder: Tandem keeps its settings, approvals, transcripts and compiled code there/,
  ],
  [
    'a folder inside the data folder',
    () => join(dataDir, 'projects', 'x'),
    /inside Tandem's own data folder/,
  ],
];

describe('openFolder from a compromised window', () => {
  it.each(FORBIDDEN)('refuses %s with the reason', async (_name, pathOf, message) => {
    await expect(call('openFolder', [pathOf()])).rejects.toThrow(message);
    await expect(call('recentFolders', [])).resolves.toEqual([]);
  });

  it("refuses the data folder's parent, saying why", async () => {
    const parent = join(root, 'apps');
    dataDir = join(parent, 'tandem-data');
    await mkdir(parent);
    await backend.dispose();
    start();
    await expect(choose(parent)).rejects.toThrow(
      `Cannot open "${parent}": it contains Tandem's own data folder (${dataDir}): Tandem keeps ` +
        'its settings, approvals, transcripts and compiled code there, and the agent must not read or change them.',
    );
  });

  it('refuses a folder the person never chose, and opens it once they chose it', async () => {
    await expect(call('openFolder', [project])).rejects.toThrow(notChosenMessage(project));
    await expect(call('recentFolders', [])).resolves.toEqual([]);
    await expect(choose(project)).resolves.toMatchObject({ folder: project, name: 'shop' });
    await expect(call('openFolder', [project])).resolves.toMatchObject({ folder: project });
    // A symlink to a chosen folder is that folder.
    await symlink(project, join(root, 'link-to-shop'));
    await expect(call('openFolder', [join(root, 'link-to-shop')])).resolves.toMatchObject({
      folder: project,
    });
  });

  it('judges a chosen symlink again when it is reopened: retargeted to /etc, it is refused', async () => {
    const link = join(root, 'link');
    await symlink(project, link);
    await choose(link);
    await unlink(link);
    await symlink('/etc', link);
    await expect(call('openFolder', [link])).rejects.toThrow(/it leads to \/etc/);
  });
});

describe('the folder dialog', () => {
  it.each(FORBIDDEN)('refuses %s even when the person picks it', async (_name, pathOf, message) => {
    await expect(choose(pathOf())).rejects.toThrow(message);
    await expect(call('recentFolders', [])).resolves.toEqual([]);
  });

  it("refuses the person's real home folder by default", async () => {
    await backend.dispose();
    start({ home: undefined });
    await expect(choose(homedir())).rejects.toThrow(/it is your home folder/);
  });
});

describe('the recent list', () => {
  const recentFile = (): string => join(dataDir, 'recent-folders.json');

  it('gets entries only from choices in the dialog', async () => {
    const other = join(home, 'code', 'other');
    await mkdir(other);
    await choose(project);
    await expect(call('openFolder', [other])).rejects.toThrow(notChosenMessage(other));
    await expect(call('openFolder', ['/etc'])).rejects.toThrow(/system folder/);
    await expect(choose('/etc')).rejects.toThrow(/system folder/);
    await expect(call('recentFolders', [])).resolves.toEqual([project]);
    const stored = JSON.parse(await readFile(recentFile(), 'utf8')) as { folders: string[] };
    expect(stored.folders).toEqual([project]);
  });

  it('does not trust a forged file: every entry is judged again by the rules', async () => {
    const listed = join(home, 'code', 'listed');
    await mkdir(listed);
    const forged = [
      '/',
      '/etc',
      join(root, 'link-to-etc'),
      home,
      root,
      dataDir,
      'relative',
      listed,
    ];
    await writeFile(recentFile(), JSON.stringify({ version: 1, folders: forged }));
    await expect(call('recentFolders', [])).resolves.toEqual([listed]);
    for (const folder of forged.slice(0, -1)) {
      await expect(call('openFolder', [folder])).rejects.toThrow(/^Cannot open/);
    }
    // An entry that passes the rules stays openable: it is where the person's choices lead.
    await expect(call('openFolder', [listed])).resolves.toMatchObject({ folder: listed });
  });
});
