// The built CLI (out/main/cli.js) loads only what its command needs (issue 15): which chunks of
// the build and which packages a process has loaded is read from require.cache by a preload, at
// exit or at the moment its first model request has gone out. A chunk is known by what it
// bundles (the build keeps each module's path as a comment), not by its hashed name.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedOpenAIServer } from '../src/test-support/scripted-openai-server';

const cli = resolve(__dirname, '../out/main/cli.js');
let base = '';

/** The temp project and data folder every command here works on. */
const folderFlags = (): string[] => [
  '--folder',
  join(base, 'proj'),
  '--data-dir',
  join(base, 'data'),
];

/** `tandem run` on the temp project, against the scripted server, answering "done". */
const runArgs = (baseUrl: string, model: string): string[] => [
  'run',
  ...folderFlags(),
  '--base-url',
  baseUrl,
  '--model',
  model,
  'say done',
];

// Writes the loaded files and Node's own loaded modules to $LOADED_OUT: at the first request sent
// (the model's, or any fetch's), else at exit; and to $LOADED_OUT.exit at exit. The programs
// started before that moment go to $LOADED_OUT.spawned.
const PRELOAD = `
const { subscribe } = require('node:diagnostics_channel');
const { writeFileSync } = require('node:fs');
const { ChildProcess } = require('node:child_process');
const loaded = () => JSON.stringify([...Object.keys(require.cache), ...process.moduleLoadList]);
const spawned = [];
const spawn = ChildProcess.prototype.spawn;
ChildProcess.prototype.spawn = function (options) {
  if (!written) spawned.push(options.file);
  return spawn.call(this, options);
};
let written = false;
const write = () => {
  if (written) return;
  written = true;
  writeFileSync(process.env.LOADED_OUT, loaded());
  writeFileSync(process.env.LOADED_OUT + '.spawned', JSON.stringify(spawned));
};
subscribe('tandem:model-request:sent', write);
subscribe('undici:request:bodySent', write);
process.on('exit', () => {
  write();
  writeFileSync(process.env.LOADED_OUT + '.exit', loaded());
});
`;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'tandem-cli-startup-')));
  await mkdir(join(base, 'proj'));
  await writeFile(join(base, 'preload.cjs'), PRELOAD);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** What a loaded file is: a package (by name) or a chunk of the build (by what it bundles). */
function describeLoaded(file: string): string[] {
  if (file.startsWith('NativeModule ')) return [`node ${file.slice('NativeModule '.length)}`];
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
  if (inPackage) return [`package ${inPackage[1]}`];
  if (!file.startsWith(resolve(__dirname, '../out/main'))) return [];
  const bundled = new Set<string>([`chunk ${basename(file)}`]);
  for (const match of readFileSync(file, 'utf8').matchAll(
    /^\/\/ node_modules\/((?:@[^/]+\/)?[^/]+)\//gm,
  )) {
    bundled.add(`bundles ${match[1]}`);
  }
  for (const match of readFileSync(file, 'utf8').matchAll(/^\/\/ src\/(\S+)\.ts$/gm)) {
    bundled.add(`bundles src/${match[1]}`);
  }
  return [...bundled];
}

async function loadedBy(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{
  code: number | null;
  stdout: string;
  stderr: string;
  loaded: Set<string>;
  loadedAtExit: Set<string>;
  /** The programs started before the first request went out (or before exit, without one). */
  spawnedBefore: string[];
}> {
  const out = join(base, `loaded-${Math.random().toString(36).slice(2)}.json`);
  const child = spawn(process.execPath, ['--require', join(base, 'preload.cjs'), cli, ...args], {
    env: {
      PATH: process.env.PATH,
      HOME: join(base, 'home'),
      NO_COLOR: '1',
      LOADED_OUT: out,
      ...env,
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  const described = async (file: string): Promise<Set<string>> =>
    new Set((JSON.parse(await readFile(file, 'utf8')) as string[]).flatMap(describeLoaded));
  return {
    code,
    stdout,
    stderr,
    loaded: await described(out),
    loadedAtExit: await described(`${out}.exit`),
    spawnedBefore: JSON.parse(await readFile(`${out}.spawned`, 'utf8')) as string[],
  };
}

describe('built CLI start-up', () => {
  it.each([['--version'], ['--help']])('%s loads no package and no command', async (flag) => {
    const { code, stdout, loaded } = await loadedBy([flag]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/tandem/);
    const packages = [...loaded].filter((entry) => /^(package|bundles) (?!src\/)/.test(entry));
    expect(packages).toEqual([]);
    expect([...loaded].filter((entry) => entry.startsWith('bundles src/main'))).toEqual([]);
  });

  it('policy loads the parser, not the agent, the provider SDK or the tools', async () => {
    const { code, stdout, stderr, loaded } = await loadedBy([
      'policy',
      '--folder',
      join(base, 'proj'),
      '--command',
      'ls -la',
      '--data-dir',
      join(base, 'data'),
    ]);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('decision: run');
    expect(loaded).toContain('package web-tree-sitter');
    expect(loaded).toContain('bundles src/main/shell/command-classifier');
    for (const name of [
      'openai',
      '@sinclair/typebox',
      'ajv',
      're2js',
      'html-to-text',
      'marked',
      '@modelcontextprotocol/sdk',
    ]) {
      expect(loaded, name).not.toContain(`bundles ${name}`);
    }
    expect(loaded).not.toContain('package node-pty');
    expect(loaded).not.toContain('bundles src/main/agent/workspace-agent');
  });

  it('run has loaded the provider SDK but none of what only a tool call or an MCP server needs when its first request goes out', async () => {
    const server = await startScriptedOpenAIServer({ turns: [{ text: 'done' }] });
    try {
      const { code, stderr, loaded, loadedAtExit, spawnedBefore } = await loadedBy(
        runArgs(server.baseUrl, 'scripted-model'),
      );
      expect(code, stderr).toBe(0);
      // The header's sandbox probe (a bwrap run) waits until the request is out; the header is
      // still the first line.
      expect(spawnedBefore).toEqual([]);
      expect(stderr.split('\n')[0]).toMatch(/^tandem · .* · (sandbox: bubblewrap|not sandboxed)$/);
      expect(server.chatBodies()).toHaveLength(1);
      expect(loaded).toContain('bundles openai');
      // No MCP server is configured, so the MCP SDK is not loaded either; and the answer goes to
      // a pipe, so marked (which draws it on a terminal) is not loaded at all. The request carries
      // the tools' schemas, but ajv validates only a tool call's arguments.
      for (const name of [
        're2js',
        'html-to-text',
        '@modelcontextprotocol/sdk',
        'marked',
        'ajv',
        'ajv-formats',
        'fast-uri',
      ]) {
        expect(loaded, name).not.toContain(`bundles ${name}`);
      }
      for (const name of ['web-tree-sitter', 'node-pty']) {
        expect(loaded, name).not.toContain(`package ${name}`);
      }
      expect(loaded).not.toContain('bundles src/main/shell/command-classifier');
      // The warm-up after the request loads it, so a first tool call does not wait for it.
      expect(loadedAtExit).toContain('bundles ajv');
    } finally {
      await server.close();
    }
  });

  it('run sends its model requests without loading undici (Node fetch), before or after', async () => {
    const server = await startScriptedOpenAIServer({
      turns: [{ toolCalls: [{ name: 'list_dir', arguments: { path: '.' } }] }, { text: 'done' }],
    });
    try {
      const { code, stderr, loaded, loadedAtExit } = await loadedBy(
        runArgs(server.baseUrl, 'scripted-model'),
      );
      expect(code, stderr).toBe(0);
      expect(server.chatBodies()).toHaveLength(2);
      // Node's fetch loads undici whole on first touch of fetch, Headers or FormData (30-45 ms).
      expect(loaded).toContain('node http');
      expect(loaded).not.toContain('node internal/deps/undici/undici');
      expect(loadedAtExit).not.toContain('node internal/deps/undici/undici');
    } finally {
      await server.close();
    }
  });

  it('run --model gpt-4o sends its first request before the o200k tokenizer has loaded, and loads it after', async () => {
    const server = await startScriptedOpenAIServer({ turns: [{ text: 'done' }], model: 'gpt-4o' });
    try {
      const { code, stderr, loaded, loadedAtExit } = await loadedBy(
        runArgs(server.baseUrl, 'gpt-4o'),
      );
      expect(code, stderr).toBe(0);
      expect(server.chatBodies()).toHaveLength(1);
      expect(loaded).toContain('bundles openai');
      expect(loaded).not.toContain('bundles gpt-tokenizer');
      // Loaded in the background once the request was sent, for the requests after it.
      expect(loadedAtExit).toContain('bundles gpt-tokenizer');
    } finally {
      await server.close();
    }
  });

  it('compiles the chunks from V8 code cache from the second run on, none refused', async () => {
    const report = join(base, 'code-cache-report.json');
    const env = { XDG_CACHE_HOME: join(base, 'code-cache'), TANDEM_CODE_CACHE_REPORT: report };
    const server = await startScriptedOpenAIServer({ turns: () => ({ text: 'done' }) });
    const commands = [
      ['policy', '--command', 'ls -la'],
      ['run', '--base-url', server.baseUrl, '--model', 'scripted-model', 'say done'],
    ];
    type Report = { used: string[]; rejected: string[]; missing: string[] };
    const reports: Report[][] = [];
    try {
      for (let round = 0; round < 2; round++) {
        const rounds: Report[] = [];
        for (const command of commands) {
          const [name, ...rest] = command as [string, ...string[]];
          const { code, stderr } = await loadedBy([name, ...folderFlags(), ...rest], env);
          expect(code, stderr).toBe(0);
          rounds.push(JSON.parse(await readFile(report, 'utf8')) as Report);
        }
        reports.push(rounds);
      }
    } finally {
      await server.close();
    }
    const [[policyFirst, runFirst], [policySecond, runSecond]] = reports as [Report[], Report[]];
    expect(policyFirst?.missing).toContain(
      readdirSync(resolve(__dirname, '../out/main')).find((f) => f.startsWith('bash-parser-')),
    );
    expect(runFirst?.missing.length).toBeGreaterThan(5);
    // Each chunk's cache is made under the flags it compiled with (the shell parser's
    // --liftoff-only comes later), so none is refused, whichever command made it.
    for (const second of [policySecond, runSecond]) {
      expect(second?.rejected).toEqual([]);
      expect(second?.missing).toEqual([]);
    }
  });
});
