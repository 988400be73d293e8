// Runs git against Tandem's shadow repository of a project: `--git-dir` is ours (in Tandem's data
// folder), `--work-tree` is the project. The environment is cleaned so nothing of the person's git
// setup (GIT_DIR, hooks, global config, credential prompts) takes part.
import { spawn } from 'node:child_process';

const SAFE_CONFIG = [
  'core.hooksPath=/dev/null',
  'core.autocrlf=false',
  'core.safecrlf=false',
  'core.fsmonitor=false',
  'core.untrackedCache=false',
  'core.quotePath=false',
  'core.symlinks=true',
  'core.fileMode=true',
  'core.excludesFile=',
  'commit.gpgSign=false',
  'gc.auto=0',
  'safe.directory=*',
];

export interface ShadowGitOptions {
  readonly gitDir: string;
  readonly workTree: string;
}

export interface GitRun {
  readonly stdout: Buffer;
  readonly stderr: string;
}

export function cleanGitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('GIT_')) env[key] = value;
  }
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'Tandem',
    GIT_AUTHOR_EMAIL: 'tandem@localhost',
    GIT_COMMITTER_NAME: 'Tandem',
    GIT_COMMITTER_EMAIL: 'tandem@localhost',
    LC_ALL: 'C',
  };
}

/** Runs `git <args>` for the shadow repository; rejects with git's own message on failure. */
export function shadowGit(
  options: ShadowGitOptions,
  args: readonly string[],
  input?: string,
): Promise<GitRun> {
  return runGit(
    [`--git-dir=${options.gitDir}`, `--work-tree=${options.workTree}`, ...args],
    options.workTree,
    input,
  );
}

/** Creates the (bare) shadow repository, without hook samples. */
export async function initShadowRepository(gitDir: string): Promise<void> {
  await runGit(['init', '--quiet', '--bare', '--template=', gitDir], gitDir);
}

function runGit(args: readonly string[], cwd: string, input?: string): Promise<GitRun> {
  const fullArgs = [...SAFE_CONFIG.flatMap((setting) => ['-c', setting]), ...args];
  const command = args.find((arg) => !arg.startsWith('--')) ?? '';
  return new Promise((resolve, reject) => {
    const child = spawn('git', fullArgs, {
      cwd,
      env: cleanGitEnv(),
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
    child.once('error', (error) => reject(new Error(`could not run git: ${error.message}`)));
    child.once('close', (code) => {
      const stderr = Buffer.concat(err).toString('utf8');
      if (code === 0) resolve({ stdout: Buffer.concat(out), stderr });
      else reject(new Error(`git ${command} failed (exit ${code}): ${stderr.trim()}`));
    });
    if (child.stdin) {
      child.stdin.on('error', () => undefined); // git exiting early is reported by its exit code.
      child.stdin.end(input);
    }
  });
}

/** Reads many blobs in one process (`cat-file --batch`). Missing ones come back undefined. */
export async function readBlobs(
  options: ShadowGitOptions,
  ids: readonly string[],
): Promise<Map<string, Buffer>> {
  const unique = [...new Set(ids)];
  const blobs = new Map<string, Buffer>();
  if (unique.length === 0) return blobs;
  const { stdout } = await shadowGit(
    options,
    ['cat-file', '--batch'],
    unique.map((id) => `${id}\n`).join(''),
  );
  let at = 0;
  for (const id of unique) {
    const headerEnd = stdout.indexOf(0x0a, at);
    if (headerEnd === -1) break;
    const header = stdout.subarray(at, headerEnd).toString('utf8').split(' ');
    at = headerEnd + 1;
    if (header[1] === 'missing') continue;
    const size = Number(header[2]);
    blobs.set(id, stdout.subarray(at, at + size));
    at += size + 1; // Content is followed by a newline.
  }
  return blobs;
}
