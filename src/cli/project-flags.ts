// The flags `tandem sessions` and `tandem undo` share: which project, which data folder, how to
// print. Parsed strictly; a bad flag is one clear line and exit 2.
import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { defaultDataDir } from '../main/store/data-dir';
import { CliFailure, EXIT, type CliIo } from './cli-io';

export interface ProjectFlags {
  /** Real path of the project folder. */
  readonly folder: string;
  readonly dataDir: string;
  readonly json: boolean;
  readonly noColor: boolean;
}

type StringOptions = Record<string, { readonly type: 'string' }>;

const COMMON = {
  folder: { type: 'string' },
  'data-dir': { type: 'string' },
  json: { type: 'boolean', default: false },
  'no-color': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsConfig['options'];

/** Parses the common flags plus `extra` string options; 'help' when -h/--help was given. */
export function parseProjectFlags<E extends StringOptions>(
  argv: readonly string[],
  io: CliIo,
  extra: E,
): { flags: ProjectFlags; values: Partial<Record<keyof E, string>> } | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: false,
      strict: true,
      options: { ...COMMON, ...extra },
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new CliFailure(message.split(/\n|\. To specify/)[0] ?? 'bad flags', EXIT.usage);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help === true) return 'help';
  const given = resolve(io.cwd, typeof values.folder === 'string' ? values.folder : '.');
  let folder: string;
  try {
    folder = realpathSync(given);
  } catch {
    throw new CliFailure(`folder does not exist: ${given}`, EXIT.setup);
  }
  if (!statSync(folder).isDirectory()) {
    throw new CliFailure(`not a folder: ${given} is a file; give the folder it is in`, EXIT.setup);
  }
  const dataDir =
    typeof values['data-dir'] === 'string'
      ? resolve(io.cwd, values['data-dir'])
      : defaultDataDir(io.env);
  const picked: Partial<Record<keyof E, string>> = {};
  for (const name of Object.keys(extra) as (keyof E & string)[]) {
    const value = values[name];
    if (typeof value === 'string') picked[name] = value;
  }
  return {
    flags: { folder, dataDir, json: values.json === true, noColor: values['no-color'] === true },
    values: picked,
  };
}
