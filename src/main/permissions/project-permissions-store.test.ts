import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_PERMISSIONS,
  JsonFilePermissionsStore,
  withRule,
  withoutRule,
} from './project-permissions-store';

let dataDir: string;
const folder = '/home/someone/project';

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tandem-perm-store-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('JsonFilePermissionsStore', () => {
  it('starts from the defaults when nothing is stored', async () => {
    expect(await new JsonFilePermissionsStore(dataDir).load(folder)).toEqual(DEFAULT_PERMISSIONS);
  });

  it('persisted rules and mode survive a restart (a new store on the same file)', async () => {
    const first = new JsonFilePermissionsStore(dataDir);
    let value = withRule(DEFAULT_PERMISSIONS, { kind: 'command', prefix: ['npm', 'test'] }, 42);
    value = withRule(value, { kind: 'tool', tool: 'write_file' }, 43);
    await first.save(folder, { ...value, mode: 'auto-edit' });
    const second = new JsonFilePermissionsStore(dataDir);
    const loaded = await second.load(folder);
    expect(loaded.mode).toBe('auto-edit');
    expect(loaded.rules).toEqual([
      { rule: { kind: 'command', prefix: ['npm', 'test'] }, createdAt: 42 },
      { rule: { kind: 'tool', tool: 'write_file' }, createdAt: 43 },
    ]);
    const file = second.fileFor(folder);
    expect(JSON.parse(await readFile(file, 'utf8')).version).toBe(1);
    // Atomic writes leave no temporary files behind.
    expect(await readdir(dirname(file))).toEqual(['permissions.json']);
    await second.save(folder, withoutRule(loaded, { kind: 'tool', tool: 'write_file' }));
    expect((await first.load(folder)).rules).toHaveLength(1);
  });

  it('keeps projects apart', async () => {
    const store = new JsonFilePermissionsStore(dataDir);
    await store.save(folder, { ...DEFAULT_PERMISSIONS, mode: 'read-only' });
    expect((await store.load('/home/someone/other')).mode).toBe('ask');
  });

  it.each([
    {
      what: 'not JSON',
      text: '{"version": 1, "mode": ',
      message: /not valid JSON.*does not reset it silently/,
    },
    {
      what: 'wrong shape',
      text: '{"version":1,"mode":"yolo","network":"ask","rules":[]}',
      message: /not a valid permissions file at mode/,
    },
    {
      what: 'substring rule',
      text: '{"version":1,"mode":"ask","network":"ask","rules":[{"rule":{"kind":"command","prefix":[]},"createdAt":1}]}',
      message: /not a valid permissions file/,
    },
    { what: 'newer version', text: '{"version":7}', message: /newer Tandem \(version 7/ },
  ])('a corrupt file ($what) is a clear error, never a silent reset', async ({ text, message }) => {
    const store = new JsonFilePermissionsStore(dataDir);
    const file = store.fileFor(folder);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
    await expect(store.load(folder)).rejects.toThrow(message);
    expect(await readFile(file, 'utf8')).toBe(text);
  });
});
