import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exactRule, widenedRule } from './permission-rule';
import {
  DEFAULT_PERMISSIONS,
  JsonFilePermissionsStore,
  migratePermissions,
  PERMISSIONS_VERSION,
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
  it('keeps a rule for every tool of one MCP server, and refuses a server name that is not one', async () => {
    const store = new JsonFilePermissionsStore(dataDir);
    const rule = { kind: 'mcp-server', server: 'db' } as const;
    await store.save(folder, withRule(DEFAULT_PERMISSIONS, rule, 7));
    expect((await store.load(folder)).rules).toEqual([{ rule, createdAt: 7 }]);
    const file = store.fileFor(folder);
    const raw = JSON.parse(await readFile(file, 'utf8'));
    raw.rules[0].rule.server = 'db__x';
    await writeFile(file, JSON.stringify(raw));
    await expect(store.load(folder)).rejects.toThrow(/not a valid permissions file at rules\.0/);
  });

  // Read synchronously on the main thread at every decision: something other than a file in its
  // place (a FIFO with no writer blocks a plain read forever) must be an error, not a frozen app.
  it('refuses something other than a regular file in place of permissions.json', async () => {
    const store = new JsonFilePermissionsStore(dataDir);
    const file = store.fileFor(folder);
    await mkdir(dirname(file), { recursive: true });
    execFileSync('mkfifo', [file]);
    await expect(store.load(folder)).rejects.toThrow(/is not a regular file/);
    await rm(file);
    await mkdir(file);
    await expect(store.load(folder)).rejects.toThrow(/is not a regular file/);
  });

  it('starts from the defaults when nothing is stored', async () => {
    expect(await new JsonFilePermissionsStore(dataDir).load(folder)).toEqual(DEFAULT_PERMISSIONS);
  });

  it('persisted rules and mode survive a restart (a new store on the same file)', async () => {
    const first = new JsonFilePermissionsStore(dataDir);
    let value = withRule(DEFAULT_PERMISSIONS, widenedRule(['npm', 'test']), 42);
    value = withRule(value, exactRule(['rm', 'build']), 42);
    value = withRule(value, { kind: 'tool', tool: 'write_file' }, 43);
    await first.save(folder, { ...value, mode: 'auto-edit' });
    const second = new JsonFilePermissionsStore(dataDir);
    const loaded = await second.load(folder);
    expect(loaded.mode).toBe('auto-edit');
    expect(loaded.rules).toEqual([
      { rule: { kind: 'command', argv: ['npm', 'test'], match: 'prefix' }, createdAt: 42 },
      { rule: { kind: 'command', argv: ['rm', 'build'], match: 'exact' }, createdAt: 42 },
      { rule: { kind: 'tool', tool: 'write_file' }, createdAt: 43 },
    ]);
    const file = second.fileFor(folder);
    expect(JSON.parse(await readFile(file, 'utf8')).version).toBe(2);
    // Atomic writes leave no temporary files behind.
    expect(await readdir(dirname(file))).toEqual(['permissions.json']);
    await second.save(folder, withoutRule(loaded, { kind: 'tool', tool: 'write_file' }));
    expect((await first.load(folder)).rules).toHaveLength(2);
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
      what: 'empty version 1 prefix',
      text: '{"version":1,"mode":"ask","network":"ask","rules":[{"rule":{"kind":"command","prefix":[]},"createdAt":1}]}',
      message: /not a valid permissions file at rules.0.rule.prefix/,
    },
    {
      what: 'version 1 shape in a version 2 file',
      text: '{"version":2,"mode":"ask","network":"ask","rules":[{"rule":{"kind":"command","prefix":["npm","test"]},"createdAt":1}]}',
      message: /not a valid permissions file at rules.0.rule/,
    },
    {
      what: 'unknown match',
      text: '{"version":2,"mode":"ask","network":"ask","rules":[{"rule":{"kind":"command","argv":["npm"],"match":"glob"},"createdAt":1}]}',
      message: /not a valid permissions file at rules.0.rule.match/,
    },
    {
      what: 'empty program',
      text: '{"version":2,"mode":"ask","network":"ask","rules":[{"rule":{"kind":"command","argv":[""],"match":"exact"},"createdAt":1}]}',
      message: /the program must not be empty/,
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

describe('version 1 files (rules were prefixes)', () => {
  const v1 = (prefixes: string[][]): unknown => ({
    version: 1,
    mode: 'auto-edit',
    network: 'off',
    rules: [
      ...prefixes.map((prefix, i) => ({ rule: { kind: 'command', prefix }, createdAt: i })),
      { rule: { kind: 'tool', tool: 'write_file' }, createdAt: 99 },
    ],
  });

  it.each([
    // Meaning kept: a version 1 rule matched any further words, so it becomes a widened rule.
    { prefix: ['npm', 'test'], rule: widenedRule(['npm', 'test']), note: undefined },
    { prefix: ['git', 'commit'], rule: widenedRule(['git', 'commit']), note: undefined },
    { prefix: ['rm', '-rf', 'build'], rule: widenedRule(['rm', '-rf', 'build']), note: undefined },
    {
      prefix: ['npm', 'run', 'build'],
      rule: widenedRule(['npm', 'run', 'build']),
      note: undefined,
    },
    // Beyond today's limits: narrowed to the exact words, with a note that says so and why.
    {
      prefix: ['git', 'push'],
      rule: exactRule(['git', 'push']),
      note: /^Stored as `git push \*`; narrowed to `git push` exactly because `git push` can run other programs/,
    },
    {
      prefix: ['npx', 'tsx', 'a.ts'],
      rule: exactRule(['npx', 'tsx', 'a.ts']),
      note: /narrowed to `npx tsx a.ts` exactly because `npx` fetches and runs/,
    },
    {
      prefix: ['make'],
      rule: exactRule(['make']),
      note: /narrowed to `make` exactly/,
    },
  ])('$prefix → $rule.match $rule.argv', ({ prefix, rule, note }) => {
    const migrated = migratePermissions(v1([prefix]), 'permissions.json');
    expect(migrated).toMatchObject({
      version: PERMISSIONS_VERSION,
      mode: 'auto-edit',
      network: 'off',
    });
    expect(migrated.rules[0]?.rule).toEqual(rule);
    if (note) expect(migrated.rules[0]?.note).toMatch(note);
    else expect(migrated.rules[0]).not.toHaveProperty('note');
    expect(migrated.rules[1]).toEqual({
      rule: { kind: 'tool', tool: 'write_file' },
      createdAt: 99,
    });
  });

  it('loads an old file from disk, and the next save writes version 2', async () => {
    const store = new JsonFilePermissionsStore(dataDir);
    const file = store.fileFor(folder);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(
      file,
      JSON.stringify(
        v1([
          ['npm', 'test'],
          ['git', 'push'],
        ]),
      ),
    );
    const loaded = await store.load(folder);
    expect(loaded.rules.map((r) => r.rule)).toEqual([
      widenedRule(['npm', 'test']),
      exactRule(['git', 'push']),
      { kind: 'tool', tool: 'write_file' },
    ]);
    await store.save(folder, loaded);
    const written = JSON.parse(await readFile(file, 'utf8'));
    expect(written.version).toBe(2);
    expect(written.rules[1].note).toMatch(/narrowed/);
    expect(await store.load(folder)).toEqual(loaded);
  });

  it('a widened rule stored by hand beyond the limits is narrowed on load, never widened', () => {
    const value = {
      version: 2,
      mode: 'ask',
      network: 'ask',
      rules: [{ rule: { kind: 'command', argv: ['bash'], match: 'prefix' }, createdAt: 1 }],
    };
    expect(migratePermissions(value, 'x').rules[0]).toMatchObject({
      rule: exactRule(['bash']),
      note: expect.stringMatching(/every use of `bash`/),
    });
  });
});
