// `tandem run`'s flags: parsed strictly, checked, and explained with examples in --help.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PERMISSION_MODES, type PermissionMode } from '../shared/tool-types';
import { defaultDataDir } from '../main/store/data-dir';
import { CliFailure, EXIT, type CliIo } from './cli-io';

export const RUN_USAGE = `Usage: tandem run [options] "task"

Runs one task in a project folder: the agent reads freely, and every edit, command and network
call is shown here first and runs only after you answer. Without a terminal to answer on, those
calls are refused and the model is told why.

The provider, model and base URL are the ones you chose in the window's Settings, unless you
give --base-url and --model. The API key comes from an environment variable (the window's key
is sealed by the OS keychain, which the CLI cannot open); local servers need none.

Options:
  --folder DIR         the project folder (default: the current folder)
  --base-url URL       an OpenAI-compatible endpoint, e.g. https://api.openai.com/v1
  --model NAME         the model to use
  --api-key-env VAR    environment variable holding the API key (default: OPENAI_API_KEY)
  --mode MODE          ask | auto-edit | read-only | autonomous (default: the project's stored mode, else ask)
  --max-steps N        model turns before the run stops (default: 50)
  --session ID         continue an earlier session of this folder (see "tandem sessions")
  --data-dir DIR       where transcripts are kept (default: $TANDEM_HOME or ~/.local/share/tandem)
  --json               print every RunEvent as one JSON line on stdout
  --no-color           no colour (also: NO_COLOR=1, or output that is not a terminal)
  -h, --help           show this help

Answers to an approval: y once, s for this session, t for 30 minutes, a always in this
project (a rule you can widen), n deny, or type a note to deny with it.

Examples:
  # With the provider stored in the window:
  OPENAI_API_KEY=sk-... tandem run --folder ~/code/app "run the tests and fix what fails"

  # A local server (no key needed):
  tandem run --base-url http://127.0.0.1:11434/v1 --model qwen3 "explain src/"

  # Read-only, as JSON lines for another program:
  tandem run --mode read-only --json "list the TODOs" | jq -r 'select(.type=="assistant-delta").text'

  # Continue a session:
  tandem run --session 20250101120000-1a2b3c4d "now update the README"

Exit codes: 0 finished, 1 the run failed, 2 bad flags, 3 a missing folder, key or provider,
4 the step limit, 130 stopped.
`;

export interface RunFlags {
  readonly folder: string;
  readonly baseUrl?: string;
  readonly model?: string;
  /** Absent: OPENAI_API_KEY, and no key at all is fine for a server that needs none. */
  readonly apiKeyEnv?: string;
  /** Absent: the project's stored mode applies. */
  readonly mode?: PermissionMode;
  readonly maxSteps: number;
  readonly session?: string;
  readonly dataDir: string;
  readonly json: boolean;
  readonly noColor: boolean;
  readonly task: string;
}

export function parseRunFlags(argv: readonly string[], io: CliIo): RunFlags | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        folder: { type: 'string' },
        'base-url': { type: 'string' },
        model: { type: 'string' },
        'api-key-env': { type: 'string' },
        mode: { type: 'string' },
        'max-steps': { type: 'string', default: '50' },
        session: { type: 'string' },
        'data-dir': { type: 'string' },
        json: { type: 'boolean', default: false },
        'no-color': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new CliFailure(message.split(/\n|\. To specify/)[0] ?? 'bad flags', EXIT.usage);
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  const mode = values.mode as PermissionMode | undefined;
  if (mode !== undefined && !PERMISSION_MODES.includes(mode)) {
    throw new CliFailure(
      `--mode must be one of ${PERMISSION_MODES.join(', ')} (got "${values.mode}")`,
      EXIT.usage,
    );
  }
  const maxSteps = Number(values['max-steps']);
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new CliFailure(
      `--max-steps must be a whole number of at least 1 (got "${values['max-steps']}")`,
      EXIT.usage,
    );
  }
  const baseUrl = values['base-url'];
  if (baseUrl !== undefined && !/^https?:\/\/[^/]/.test(baseUrl)) {
    throw new CliFailure(
      `--base-url must start with http:// or https:// (got "${baseUrl}")`,
      EXIT.usage,
    );
  }
  if (values.model === '') throw new CliFailure('--model must not be empty', EXIT.usage);
  const task = positionals.join(' ').trim();
  if (!task)
    throw new CliFailure('no task given: put the task in quotes after the flags', EXIT.usage);
  return {
    folder: resolve(io.cwd, values.folder ?? '.'),
    ...(baseUrl !== undefined ? { baseUrl } : {}),
    ...(values.model !== undefined ? { model: values.model } : {}),
    ...(values['api-key-env'] ? { apiKeyEnv: values['api-key-env'] } : {}),
    ...(mode ? { mode } : {}),
    maxSteps,
    ...(values.session ? { session: values.session } : {}),
    dataDir: values['data-dir'] ? resolve(io.cwd, values['data-dir']) : defaultDataDir(io.env),
    json: values.json,
    noColor: values['no-color'],
    task,
  };
}
