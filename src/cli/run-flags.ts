// The flags of `tandem run`, parsed and checked: every bad value ends the command with one line
// naming the flag and what it accepts (exit 2), before anything is opened or asked.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { baseUrlSchema } from '../shared/ipc-schemas';
import { CONTEXT_TOKENS_MAX, CONTEXT_TOKENS_MIN } from '../shared/model-settings';
import { PERMISSION_MODES, type PermissionMode } from '../shared/tool-types';
import { fieldOf, TIMEOUT_FIELDS, type ProviderTimeoutSettings } from '../shared/provider-timeouts';
import { timeoutsFromSettings, type ProviderTimeouts } from '../main/agent/request-watchdog';
import { defaultDataDir } from '../main/store/data-dir';
import { CliFailure, EXIT, type CliIo } from './cli-io';

export interface RunFlags {
  readonly folder: string;
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKeyEnv: string;
  /** Absent: the project's stored mode applies. */
  readonly mode?: PermissionMode;
  readonly maxSteps: number;
  /** The model's window in tokens; absent: Settings, the provider's list or Tandem's table. */
  readonly contextTokens?: number;
  readonly timeouts: ProviderTimeouts;
  readonly session?: string;
  readonly dataDir: string;
  readonly json: boolean;
  readonly task: string;
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
        'api-key-env': { type: 'string', default: 'OPENAI_API_KEY' },
        mode: { type: 'string' },
        'max-steps': { type: 'string', default: '50' },
        'context-tokens': { type: 'string' },
        'connect-timeout': { type: 'string' },
        'idle-timeout': { type: 'string' },
        'request-timeout': { type: 'string' },
        session: { type: 'string' },
        'data-dir': { type: 'string' },
        json: { type: 'boolean', default: false },
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
  const timeouts = timeoutsFromSettings({
    connectSeconds: seconds('connectSeconds', values['connect-timeout']),
    idleSeconds: seconds('idleSeconds', values['idle-timeout']),
    requestSeconds: seconds('requestSeconds', values['request-timeout']),
  });
  const baseUrl = values['base-url'];
  if (!baseUrl) {
    throw new CliFailure('--base-url is required (an OpenAI-compatible endpoint)', EXIT.usage);
  }
  const checkedUrl = baseUrlSchema.safeParse(baseUrl);
  if (!checkedUrl.success) {
    throw new CliFailure(
      `--base-url must be an http:// or https:// URL with a host, e.g. https://api.openai.com/v1 (got "${baseUrl}")`,
      EXIT.usage,
    );
  }
  if (!values.model) throw new CliFailure('--model is required', EXIT.usage);
  const task = positionals.join(' ').trim();
  if (!task) {
    throw new CliFailure('no task given: put the task in quotes after the flags', EXIT.usage);
  }
  return {
    folder: resolve(io.cwd, values.folder ?? '.'),
    baseUrl: checkedUrl.data,
    model: values.model,
    apiKeyEnv: values['api-key-env'],
    ...(mode ? { mode } : {}),
    maxSteps,
    ...(contextTokens !== undefined ? { contextTokens } : {}),
    timeouts,
    ...(values.session ? { session: values.session } : {}),
    dataDir: values['data-dir'] ? resolve(io.cwd, values['data-dir']) : defaultDataDir(io.env),
    json: values.json,
    task,
  };
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
      `${flag} must be a whole number from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}, written with digits only (got "${raw}")`,
      EXIT.usage,
    );
  }
  return value;
}

function seconds(key: keyof ProviderTimeoutSettings, raw: string | undefined): number {
  const field = fieldOf(key);
  if (raw === undefined) return field.default;
  return positiveInteger(`${field.flag} (seconds)`, raw, field.max);
}
