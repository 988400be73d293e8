// Issue 11 item 5, the second wall: Tandem's data folder inside the project folder is untouchable
// by every tool and every command. The first wall keeps such a project from being opened at all
// (the window and `tandem run` both refuse it, asserted last here); the second holds wherever the
// data folder turns up anyway, so it is tested on the composition the CLI runs, after that check:
// the real provider over HTTP, the CLI's permission gate, the workspace agent with the built-in
// tools, bubblewrap. The model, in autonomous mode where every write and command runs without
// asking, is told to read, list, search, overwrite and delete Tandem's own files; none of it
// reaches them.
import { readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIProvider } from '../main/agent/provider';
import { openWorkspaceAgent } from '../main/agent/workspace-agent';
import { JsonFilePermissionsStore } from '../main/permissions/project-permissions-store';
import { projectDataDir } from '../main/store/data-dir';
import { makeTempDir } from '../test-support/agent-harness';
import {
  startScriptedOpenAIServer,
  type ScriptedServer,
} from '../test-support/scripted-openai-server';
import type { PermissionMode } from '../shared/tool-types';
import type { CliIo } from './cli-io';
import { main } from './index';
import { createRunPermissionGate } from './run-permission-gate';

const MARKER = 'TANDEM-DATA-MARKER-7f3a';
/** Finds the marker without being it, so the command's own text (in the transcript) is no hit. */
const PATTERN = 'TANDEM-DATA-MARKER-7f3[a]';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Setup {
  readonly server: ScriptedServer;
  readonly folder: string;
  readonly dataDir: string;
  readonly rules: string;
}

/** A project with Tandem's data folder (its rules file, and a file with the marker) inside it. */
async function setup(
  calls: (rules: string) => { name: string; arguments: Record<string, unknown> }[],
) {
  const folder = await realpath(await makeTempDir('data-in-proj'));
  const dataDir = join(folder, '.tandem-data');
  const store = new JsonFilePermissionsStore(dataDir);
  await store.save(folder, await store.load(folder));
  const rules = relative(folder, store.fileFor(folder));
  await writeFile(join(projectDataDir(dataDir, folder), 'marker.txt'), `${MARKER}\n`);
  await writeFile(join(folder, 'notes.txt'), 'project notes\n');
  const server = await startScriptedOpenAIServer({
    turns: [
      { toolCalls: calls(rules).map((call, i) => ({ id: `call_${i}`, ...call })) },
      { text: 'done' },
    ],
  });
  cleanups.push(
    () => server.close(),
    () => rm(folder, { recursive: true, force: true }),
  );
  return { server, folder, dataDir, rules } satisfies Setup;
}

/** What `tandem run` composes once the folder is accepted, run to the end. */
async function run(s: Setup, mode: PermissionMode): Promise<{ code: string; answers: string[] }> {
  const permissions = createRunPermissionGate({
    folder: s.folder,
    dataDir: s.dataDir,
    mode,
    stdin: Readable.from([]),
    stdinIsTTY: false,
    write: () => undefined,
  });
  const workspace = await openWorkspaceAgent({
    provider: createOpenAIProvider({ baseUrl: s.server.baseUrl, model: 'm', apiKey: 'k' }),
    gate: permissions.gate,
    folder: s.folder,
    dataDir: s.dataDir,
  });
  let code: string;
  try {
    code = await workspace.agent.startRun('go').done;
  } finally {
    permissions.close();
    await workspace.close();
  }
  const messages = s.server.chatBodies()[1]?.messages ?? [];
  return {
    code,
    answers: messages.filter((m) => m.role === 'tool').map((m) => String(m.content)),
  };
}

describe("Tandem's data folder inside the project", () => {
  it('is refused to every file tool, in autonomous mode too', async () => {
    const s = await setup((rules) => [
      { name: 'read_file', arguments: { path: rules } },
      {
        name: 'write_file',
        arguments: { path: rules, content: '{"version":1,"mode":"autonomous","rules":[]}' },
      },
      { name: 'edit_file', arguments: { path: rules, old_text: 'ask', new_text: 'autonomous' } },
      { name: 'read_file', arguments: { path: `notes.txt/../${rules}` } },
      { name: 'list_dir', arguments: { path: '.tandem-data' } },
      { name: 'list_dir', arguments: { path: '.', depth: 6 } },
      { name: 'search', arguments: { pattern: PATTERN } },
      { name: 'find_files', arguments: { pattern: '**/*.json' } },
      { name: 'write_file', arguments: { path: '.tandem-data/new.txt', content: 'x' } },
    ]);
    const before = await readFile(join(s.folder, s.rules), 'utf8');
    const { code, answers } = await run(s, 'autonomous');
    expect(code).toBe('done');
    // Refused by the policy before the tool runs, or by the tool's own guard (list_dir's path).
    const refused = /^(Error: Refused: |\w+ was refused: ).* is in Tandem's own data folder/;
    expect(answers[0]).toMatch(refused);
    expect(answers[1]).toMatch(refused);
    expect(answers[2]).toMatch(refused);
    expect(answers[3]).toMatch(refused);
    expect(answers[4]).toMatch(refused);
    expect(answers[5]).toContain(".tandem-data/ (Tandem's own data folder: not listed)");
    expect(answers[5]).toContain('notes.txt');
    expect(answers[5]).not.toContain('permissions.json');
    expect(answers[6]).toMatch(/^No matches/);
    expect(answers[7]).toMatch(/^No files match/);
    expect(answers[8]).toMatch(refused);
    expect(await readFile(join(s.folder, s.rules), 'utf8')).toBe(before);
    expect(await readdir(s.dataDir)).not.toContain('new.txt');
    for (const answer of answers) expect(answer).not.toContain(MARKER);
  });

  it('is hidden from every command by the sandbox', async () => {
    const s = await setup((rules) => [
      // Approved by the mode: runs with the project writable, yet sees an empty data folder.
      {
        name: 'shell',
        arguments: {
          command: `ls -A .tandem-data; cat ${rules} .tandem-data/*/*/marker.txt; rm -rf .tandem-data/* ; echo gone > ${rules}; grep -r ${PATTERN} . ; echo end`,
        },
      },
      // Read-only and auto-run otherwise: a recursive read of the project finds nothing in it.
      { name: 'shell', arguments: { command: `grep -r ${PATTERN} .` } },
    ]);
    const before = await readFile(join(s.folder, s.rules), 'utf8');
    const { code, answers } = await run(s, 'autonomous');
    expect(code).toBe('done');
    expect(answers[0]).toContain('end');
    expect(answers[0]).not.toContain(MARKER);
    // The change tracker leaves Tandem's own files out: its transcript and journal
    // changed while the command ran, and reverting the command must never put them back.
    expect(answers[0]).not.toMatch(/Changes on disk[^\n]*\n[^]*\.tandem-data\//);
    expect(answers[1]).not.toContain(MARKER);
    expect(await readFile(join(s.folder, s.rules), 'utf8')).toBe(before);
  });

  it('is refused by tandem run before anything runs (the first wall)', async () => {
    const s = await setup(() => [{ name: 'list_dir', arguments: { path: '.' } }]);
    let err = '';
    const io: CliIo = {
      stdout: { write: () => true },
      stderr: { write: (text: string) => (err += text) },
      stdin: Readable.from([]),
      stdinIsTTY: false,
      env: { OPENAI_API_KEY: 'k' },
      cwd: s.folder,
    };
    const argv = ['run', '--folder', s.folder, '--data-dir', s.dataDir];
    const flags = ['--base-url', s.server.baseUrl, '--model', 'm', '--mode', 'autonomous', 'go'];
    expect(await main([...argv, ...flags], io)).toBe(3);
    expect(err).toContain(
      `Tandem does not work in ${s.folder}: it contains Tandem's own data folder (${s.dataDir})`,
    );
    expect(s.server.requests).toHaveLength(0);
  });
});
