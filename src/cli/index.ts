// `tandem`: the headless front end over the same core as the window (DESIGN.md §2).
import { realpathSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isatty } from 'node:tty';
import { fileURLToPath } from 'node:url';
import { version } from '../../package.json';
import { EXIT, type CliDeps, type CliIo } from './cli-io';
import { COMMANDS } from './commands';

const defaultDeps: CliDeps = {};

export async function main(
  argv: readonly string[],
  io: CliIo,
  deps: CliDeps = defaultDeps,
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.stderr : io.stdout).write(overview());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    io.stdout.write(`tandem ${version}\n`);
    return EXIT.ok;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.stderr.write(
      `tandem: unknown command "${name}" (commands: ${COMMANDS.map((c) => c.name).join(', ')})\n`,
    );
    return EXIT.usage;
  }
  const run = await command.load();
  return run(rest, io, deps);
}

function overview(): string {
  const rows = COMMANDS.map((c) => `  ${c.name.padEnd(10)} ${c.summary}`).join('\n');
  return `Usage: tandem <command> [options]

Tandem: you and an AI agent, one project folder. Reads run freely; every edit, command and
network call is shown first and runs only after you answer.

Commands:
${rows}

Options:
  -h, --help      show this help
  -V, --version   show the version

Examples:
  tandem run --folder ~/code/app "run the tests and fix what fails"
  tandem sessions --folder ~/code/app
  tandem undo --folder ~/code/app --session 20250101120000-1a2b3c4d --run <run id>
  tandem policy --folder ~/code/app --command "npm test && git push"

Run "tandem <command> --help" for its options and more examples.
`;
}

function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // process.stdin is a stream Node makes on first use (a few ms): only a run that asks reads it.
    get stdin() {
      return process.stdin;
    },
    stdinIsTTY: isatty(0),
    env: process.env,
    cwd: process.cwd(),
    onInterrupt: (handler) => {
      // The first Ctrl-C stops the run cleanly; a second one leaves at once.
      let presses = 0;
      const onSigint = (): void => {
        if (++presses > 1) process.exit(EXIT.stopped);
        handler();
      };
      process.on('SIGINT', onSigint);
      return () => process.off('SIGINT', onSigint);
    },
  };
}

function isEntryPoint(): boolean {
  try {
    const entry = process.argv[1];
    return (
      entry !== undefined && realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url))
    );
  } catch {
    return false;
  }
}

/**
 * Before a command's chunks load: V8's code cache for them (code-cache.ts), loaded only then so
 * --version and --help pay nothing for it. TANDEM_NO_CODE_CACHE turns it off;
 * TANDEM_CODE_CACHE_REPORT names a file that gets, at exit, which chunks came from the cache.
 */
async function startCodeCache(argv: readonly string[]): Promise<void> {
  const { TANDEM_NO_CODE_CACHE: off, TANDEM_CODE_CACHE_REPORT: reportFile } = process.env;
  const entry = realpathSync(fileURLToPath(import.meta.url));
  // The built CLI only: run from its sources (tsx), the modules are not the bundle's chunks.
  if (off || !entry.endsWith('.js') || !COMMANDS.some((c) => c.name === argv[0])) return;
  const { codeCacheDir, useCodeCache } = await import('./code-cache');
  const report = useCodeCache(dirname(entry), codeCacheDir());
  if (reportFile)
    process.on('exit', () => writeFileSync(reportFile, JSON.stringify(report ?? null)));
}

if (isEntryPoint()) {
  const argv = process.argv.slice(2);
  void startCodeCache(argv)
    // Only an optimisation: the command runs whatever became of it.
    .catch(() => undefined)
    .then(() => main(argv, processIo()))
    .then((code) => {
      process.exitCode = code;
      // Idle keep-alive sockets must not hold the process open; stdout gets a moment to drain.
      setTimeout(() => process.exit(code), 200).unref();
    });
}
