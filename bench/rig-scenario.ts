// The rig scenario of issue 15, shared by the bench's variants: a 20-file project in a temp folder
// (a git repository) and a 30-turn script an instant model plays over real HTTP: 8 list_dir,
// 7 read_file, 7 write_file (a small edit each), 7 shell `echo ok | tee -a shell_ok.log`, then a
// final answer. The server notes when each chat request arrives, so both variants are timed alike.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  startScriptedOpenAIServer,
  type ScriptedServer,
  type ScriptedToolCall,
  type ScriptedTurn,
} from '../src/test-support/scripted-openai-server';

export const TURNS = 30;
export const COMMAND = 'echo ok | tee -a shell_ok.log';
const FILES = 20;

export interface RigProject {
  readonly root: string;
  readonly folder: string;
  readonly dataDir: string;
}

const fileName = (i: number): string => `src/module${String(i).padStart(2, '0')}.ts`;

function fileText(i: number): string {
  const lines = [`// module ${i}`];
  for (let n = 1; n < 40; n++) lines.push(`export const value${n} = ${i * 100 + n};`);
  return lines.join('\n') + '\n';
}

export async function makeRigProject(): Promise<RigProject> {
  const root = await mkdtemp(join(tmpdir(), 'tandem-rig-'));
  const folder = join(root, 'project');
  await mkdir(join(folder, 'src'), { recursive: true });
  await mkdir(join(folder, 'docs'));
  for (let i = 0; i < FILES - 2; i++) await writeFile(join(folder, fileName(i)), fileText(i));
  await writeFile(join(folder, 'README.md'), '# rig project\n\nTwenty files to work on.\n');
  await writeFile(join(folder, 'docs/notes.md'), '# notes\n');
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: folder });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.email=b@b', '-c', 'user.name=b', 'commit', '-q', '-m', 'start');
  return { root, folder, dataDir: join(root, 'data') };
}

/** The tool call of turn `index` (0-based; turn 29 is the final answer). */
export function rigCall(index: number, folderText: (path: string) => string): ScriptedToolCall {
  const id = `call_${index}`;
  if (index === 0) return { id, name: 'list_dir', arguments: { path: '.' } };
  // Seven rounds of read, write, command, list: 1 + 7 lists, 7 of each other.
  const round = Math.floor((index - 1) / 4);
  const path = fileName(round);
  switch ((index - 1) % 4) {
    case 0:
      return { id, name: 'read_file', arguments: { path } };
    case 1:
      return {
        id,
        name: 'write_file',
        arguments: { path, content: folderText(path).replace('// module', '// edited module') },
      };
    case 2:
      return { id, name: 'shell', arguments: { command: COMMAND } };
    default:
      return { id, name: 'list_dir', arguments: { path: round % 2 ? 'src' : '.' } };
  }
}

export interface RigServer {
  readonly server: ScriptedServer;
  /** performance.now() at each chat request's arrival. */
  readonly arrivals: number[];
}

/** The instant model. The edit's content is what the file held at the scenario's start. */
export async function startRigServer(
  onRequest: (index: number) => void = () => {},
): Promise<RigServer> {
  const arrivals: number[] = [];
  const originals = new Map<string, string>();
  for (let i = 0; i < FILES - 2; i++) originals.set(fileName(i), fileText(i));
  const server = await startScriptedOpenAIServer({
    recordRequests: false,
    chunkBytes: 4096,
    deltaChars: 256,
    turns: (index): ScriptedTurn => {
      arrivals.push(performance.now());
      onRequest(index);
      if (index >= TURNS - 1) return { text: 'All done: the files are edited and the log has ok.' };
      return { toolCalls: [rigCall(index, (path) => originals.get(path) ?? '')] };
    },
  });
  return { server, arrivals };
}

/** Checks a variant really did the work: seven edits and seven lines of `ok`. */
export async function checkRigOutcome(folder: string): Promise<void> {
  const log = await readFile(join(folder, 'shell_ok.log'), 'utf8');
  if (log !== 'ok\n'.repeat(7)) throw new Error(`shell_ok.log holds ${JSON.stringify(log)}`);
  for (let round = 0; round < 7; round++) {
    const text = await readFile(join(folder, fileName(round)), 'utf8');
    if (!text.startsWith('// edited module')) throw new Error(`${fileName(round)} was not edited`);
  }
}

/** Per-turn times: from one request's arrival to the next (the last turn has no tool). */
export function turnTimes(arrivals: readonly number[]): number[] {
  return arrivals.slice(1).map((at, i) => at - (arrivals[i] as number));
}
