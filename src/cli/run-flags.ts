// The flags of `tandem run`, parsed and checked: every bad value ends the command with one line
// naming the flag and what it accepts (exit 2), before anything is opened or asked. --help
// explains them with examples. What a flag leaves out comes from the window's Settings
// (provider-choice.ts) or the defaults.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { baseUrlSchema } from '../shared/ipc-schemas';
import { CONTEXT_TOKENS_MAX, CONTEXT_TOKENS_MIN } from '../shared/model-settings';
import { PERMISSION_MODES, type PermissionMode } from '../shared/tool-types';
import {
  DEFAULT_TIMEOUT_SETTINGS,
  fieldOf,
  TIMEOUT_FIELDS,
  type ProviderTimeoutSettings,
} from '../shared/provider-timeouts';
import { timeoutsFromSettings, type ProviderTimeouts } from '../main/agent/request-watchdog';
import { defaultDataDir } from '../main/store/data-dir';
import { CliFailure, EXIT, type CliIo } from './cli-io';
import { groupDigits } from '../shared/digit-groups';
import {
  checkMcpFlags,
  MCP_FLAG_OPTIONS,
  MCP_FLAG_USAGE,
  type McpFlagValues,
} from './mcp-cli-servers';

export const RUN_USAGE = `Usage: tandem run [options] "task"

Runs one task in a project folder: the agent reads freely, and every edit, command and network
call is shown here first and runs only after you answer. Without a terminal to answer on, those
calls are refused and the model is told why.

The provider, model, base URL and timeouts are the ones you chose in the window's Settings,
unless you give --base-url and --model (and the timeout flags). The API key comes from an environment variable (the window's key
is sealed by the OS keychain, which the CLI cannot open); local servers need none.

Options:
  --folder DIR         the project folder (default: the current folder)
  --base-url URL       an OpenAI-compatible endpoint, e.g. https://api.openai.com/v1
  --model NAME         the model to use
  --api-key-env VAR    environment variable holding the API key (default: OPENAI_API_KEY)
  --mode MODE          ask | auto-edit | read-only | autonomous (default: the project's stored mode, else ask)
  --max-steps N        model turns before the run stops (default: 50, at most 100,000)
  --context-tokens N   the model's context window in tokens, 2,048 or more (default: the
                       model's figure in the window's Settings, else the provider's model
                       list, else Tandem's table of known models; windows past 200,000 are
                       worked within 200,000 unless you give more here)
  --connect-timeout S  seconds for the provider to start answering (default: the window's
                       setting, else 60; at most 300)
  --idle-timeout S     seconds the provider may go quiet mid-answer (default: the window's
                       setting, else 120; at most 300)
  --request-timeout S  seconds one model request may take in all (default: the window's
                       setting, else 1200; at most 86,400)
  --session ID         continue an earlier session of this folder (see "tandem sessions")
  --data-dir DIR       where transcripts are kept (default: $TANDEM_HOME or ~/.local/share/tandem)
  --json               print every RunEvent as one JSON line on stdout
  --no-color           no colour (also: NO_COLOR=1, or output that is not a terminal)
${MCP_FLAG_USAGE}
  -h, --help           show this help

MCP servers: those of --mcp-config, and the project's .mcp.json once accepted ("tandem mcp
accept"). Local servers run inside the sandbox where there is one.

Answers to an approval: y once, s for this session, t for 30 minutes, a always in this
project (a rule you can widen), n deny, or type a note to deny with it.

Examples:
  # With the provider stored in the window:
  OPENAI_API_KEY=sk-... tandem run --folder ~/code/app "run the tests and fix what fails"

  # A local server (no key needed):
  tandem run --base-url http://127.0.0.1:11434/v1 --model qwen3 "explain src/"

  # Read-only, as JSON lines for another program:
  tandem run --mode read-only --json "list the TODOs" | jq -r 'select(.type=="assistant-delta").text'

  # With the MCP servers of a file, trusting one server's read-only tools:
  tandem run --mcp-config mcp.json --mcp-trust docs "summarise the design notes"

  # Continue a session:
  tandem run --session 20250101120000-1a2b3c4d "now update the README"

Exit codes: 0 finished, 1 the run failed, 2 bad flags, 3 a missing folder, key or provider,
4 the step limit, 130 stopped.
`;

export interface RunFlags {
  readonly folder: string;
  /** Absent: the window's stored base URL (checked like the window checks it when given). */
  readonly baseUrl?: string;
  /** Absent: the window's stored model. */
  readonly model?: string;
  /** Absent: OPENAI_API_KEY, and no key at all is fine for a server that needs none. */
  readonly apiKeyEnv?: string;
  /** Absent: the project's stored mode applies. */
  readonly mode?: PermissionMode;
  readonly maxSteps: number;
  /** The model's window in tokens; absent: Settings, the provider's list or Tandem's table. */
  readonly contextTokens?: number;
  /** The timeouts given on the command line, in seconds; see `runTimeouts` for the rest. */
  readonly timeoutSeconds: Partial<ProviderTimeoutSettings>;
  readonly session?: string;
  readonly dataDir: string;
  readonly json: boolean;
  readonly noColor: boolean;
  readonly task: string;
  /** --mcp-config and the choices named for its servers (read by mcp-cli-servers.ts). */
  readonly mcp: McpFlagValues;
}

/** Flags whose value is a count or a number of seconds: a leading "-" is a bad value, not a flag. */
const NUMERIC_FLAGS = [
  '--max-steps',
  '--context-tokens',
  ...TIMEOUT_FIELDS.map((field) => field.flag),
];

const MAX_STEPS_LIMIT = 100_000;

export function parseRunFlags(argv: readonly string[], io: CliIo): RunFlags | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: joinNumericValues(argv),
      allowPositionals: true,
      strict: true,
      options: {
        folder: { type: 'string' },
        'base-url': { type: 'string' },
        model: { type: 'string' },
        'api-key-env': { type: 'string' },
        mode: { type: 'string' },
        'max-steps': { type: 'string', default: '50' },
        'context-tokens': { type: 'string' },
        'connect-timeout': { type: 'string' },
        'idle-timeout': { type: 'string' },
        'request-timeout': { type: 'string' },
        session: { type: 'string' },
        'data-dir': { type: 'string' },
        json: { type: 'boolean', default: false },
        'no-color': { type: 'boolean', default: false },
        ...MCP_FLAG_OPTIONS,
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
  const maxSteps = positiveInteger('--max-steps', values['max-steps'], MAX_STEPS_LIMIT);
  const rawContext = values['context-tokens'];
  const contextTokens =
    rawContext === undefined
      ? undefined
      : positiveInteger('--context-tokens', rawContext, CONTEXT_TOKENS_MAX, CONTEXT_TOKENS_MIN);
  const timeoutSeconds = {
    ...seconds('connectSeconds', values['connect-timeout']),
    ...seconds('idleSeconds', values['idle-timeout']),
    ...seconds('requestSeconds', values['request-timeout']),
  };
  const baseUrl = checkedBaseUrl(values['base-url']);
  if (values.model === '') throw new CliFailure('--model must not be empty', EXIT.usage);
  if (values['api-key-env'] === '') {
    throw new CliFailure('--api-key-env must name an environment variable', EXIT.usage);
  }
  const mcp: McpFlagValues = {
    'mcp-config': values['mcp-config'],
    'mcp-trust': values['mcp-trust'],
    'mcp-write': values['mcp-write'],
    'mcp-network': values['mcp-network'],
  };
  checkMcpFlags(mcp);
  const task = positionals.join(' ').trim();
  if (!task) {
    throw new CliFailure('no task given: put the task in quotes after the flags', EXIT.usage);
  }
  return {
    folder: resolve(io.cwd, values.folder ?? '.'),
    ...(baseUrl !== undefined ? { baseUrl } : {}),
    ...(values.model !== undefined ? { model: values.model } : {}),
    ...(values['api-key-env'] !== undefined ? { apiKeyEnv: values['api-key-env'] } : {}),
    ...(mode ? { mode } : {}),
    maxSteps,
    ...(contextTokens !== undefined ? { contextTokens } : {}),
    timeoutSeconds,
    ...(values.session ? { session: values.session } : {}),
    dataDir: values['data-dir'] ? resolve(io.cwd, values['data-dir']) : defaultDataDir(io.env),
    json: values.json,
    noColor: values['no-color'],
    task,
    mcp,
  };
}

/**
 * The run's time limits: each flag given wins, then the window's stored setting (when the
 * provider came from the window), then the default.
 */
export function runTimeouts(
  flags: Pick<RunFlags, 'timeoutSeconds'>,
  stored?: ProviderTimeoutSettings,
): ProviderTimeouts {
  return timeoutsFromSettings({
    ...DEFAULT_TIMEOUT_SETTINGS,
    ...stored,
    ...flags.timeoutSeconds,
  });
}

/** The same check as the window's Settings: an http(s) URL with a host. */
function checkedBaseUrl(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const checked = baseUrlSchema().safeParse(raw);
  if (!checked.success) {
    throw new CliFailure(
      `--base-url must be an http:// or https:// URL with a host, e.g. https://api.openai.com/v1 (got "${raw}")`,
      EXIT.usage,
    );
  }
  return checked.data;
}

/**
 * `--max-steps -1` would otherwise be read as a flag and reported as "ambiguous"; joined into
 * `--max-steps=-1` it reaches the number check, which says what the flag accepts.
 */
function joinNumericValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const next = argv[i + 1];
    if (NUMERIC_FLAGS.includes(arg) && next !== undefined && next.startsWith('-')) {
      out.push(`${arg}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

/** Digits only: "0x10", "1e3", " 5 ", "+5" and "5.0" are refused rather than read as numbers. */
function positiveInteger(flag: string, raw: string, max: number, min = 1): number {
  const value = /^[0-9]+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new CliFailure(
      `${flag} must be a whole number from ${groupDigits(min)} to ${groupDigits(max)}, written with digits only (got "${raw}")`,
      EXIT.usage,
    );
  }
  return value;
}

/** `{ [key]: seconds }` for a flag that was given, `{}` for one that was not. */
function seconds(
  key: keyof ProviderTimeoutSettings,
  raw: string | undefined,
): Partial<ProviderTimeoutSettings> {
  if (raw === undefined) return {};
  const field = fieldOf(key);
  return { [key]: positiveInteger(`${field.flag} (seconds)`, raw, field.max) };
}
