// How a local (stdio) MCP server starts: inside the same sandbox an approved command gets
// (system read-only, private /tmp, home hidden, the project read-only or read-write as the person
// chose for this server, network only if allowed for it, Tandem's data folder covered), but with
// the host's /run emptied like an unapproved command's, with only the environment its config
// names plus PATH, HOME and LANG, and never the provider's key. Where there is no sandbox, it
// says so instead of pretending.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import type { McpSandboxInfo, McpServerChoices } from '../../shared/mcp-types';
import type { SandboxState } from '../../shared/tool-types';
import { absolutePath, withoutSecrets } from '../shell/command-env';
import type { ProjectAccess } from '../shell/sandbox-launcher';
import { prepareSandbox } from '../shell/sandbox-wrap';
import { serverCwd, type McpServerSpec } from './mcp-config';
import { programFolders } from './program-folders';

/** The only variables a server gets from Tandem's own environment. */
export const INHERITED_VARIABLES: readonly string[] = ['PATH', 'HOME', 'LANG'];

export interface StdioLaunch {
  /** Program and arguments, the sandbox's wrapper included. */
  readonly argv: readonly [string, ...string[]];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  readonly sandbox: McpSandboxInfo;
  /** Undoes what the sandbox needed (a temp folder on macOS); call after the server stopped. */
  finish(): Promise<void>;
}

export interface StdioLaunchInput {
  readonly spec: Extract<McpServerSpec, { kind: 'stdio' }>;
  /** Real path of the project folder. */
  readonly folder: string;
  readonly choices: McpServerChoices;
  readonly sandbox: SandboxState;
  readonly baseEnv?: Readonly<Record<string, string | undefined>>;
  readonly home?: string;
  /** Real paths of Tandem's own data folders: covered in the sandbox as for commands. */
  readonly dataFolders?: readonly string[];
  /** The key's variable and value: out of the server's environment, as out of every child's. */
  readonly secrets?: ChildSecrets;
}

/** What no child of Tandem inherits (see withoutSecrets in command-env.ts). */
export interface ChildSecrets {
  /** Variables beyond Tandem's own (TANDEM_SECRET_VARIABLES): the one --api-key-env named. */
  readonly names: readonly string[];
  /** The provider's key: a variable holding it is dropped, whatever its name. */
  readonly values: readonly string[];
}

export function serverEnvironment(
  spec: Extract<McpServerSpec, { kind: 'stdio' }>,
  base: Readonly<Record<string, string | undefined>>,
  secrets: ChildSecrets = { names: [], values: [] },
): Record<string, string> {
  // Tandem's own environment gives only these, and never a secret Tandem holds; what the config
  // names is the person's own choice (a file cannot expand ${VAR}, so it cannot ask for the key).
  const inherited = withoutSecrets(base, secrets.names, secrets.values);
  const env: Record<string, string> = {};
  for (const name of INHERITED_VARIABLES) {
    const value = inherited[name];
    if (value !== undefined) env[name] = value;
  }
  env.PATH = absolutePath(env.PATH);
  // What the config names wins: it is what the person (or the accepted file) asked for.
  return { ...env, ...spec.env };
}

export function accessFor(choices: McpServerChoices): ProjectAccess {
  // A server has no business in .git: even a read-write one leaves it read-only.
  return choices.projectAccess === 'read-write'
    ? { kind: 'read-write', git: 'read-only' }
    : { kind: 'read-only' };
}

export function describeServerSandbox(
  state: SandboxState,
  choices: McpServerChoices,
): McpSandboxInfo {
  if (!state.available) {
    return {
      sandboxed: false,
      description: `Not sandboxed: ${state.description.replace(/^Not sandboxed: /, '')} This server runs with your full permissions.`,
    };
  }
  const project =
    choices.projectAccess === 'read-write' ? 'project read-write' : 'project read-only';
  return {
    sandboxed: true,
    description: `${state.description}, ${project}, network ${choices.network ? 'allowed' : 'off'}, only the environment its config names`,
  };
}

export async function planStdioLaunch(input: StdioLaunchInput): Promise<StdioLaunch> {
  const { spec, folder, choices, sandbox } = input;
  const cwd = serverCwd(spec, folder);
  const env = serverEnvironment(spec, input.baseEnv ?? process.env, input.secrets);
  const home = input.home ?? homedir();
  const shown = programFolders([spec.command, ...spec.args.slice(0, 1)], [home, '/tmp'], folder);
  const prepared = await prepareSandbox(sandbox, {
    folder,
    home: home && existsSync(home) ? home : '',
    allowNetwork: choices.network,
    access: accessFor(choices),
    cwd,
    ...(input.dataFolders ? { dataFolders: input.dataFolders } : {}),
    // The session bus and `systemd-run --user` would run anything outside the sandbox, and no
    // one approves what a server runs: write access to the project does not bring /run back.
    hostSockets: 'hidden',
    ...(shown.length > 0 ? { programFolders: shown } : {}),
  });
  const command: readonly string[] = [spec.command, ...spec.args];
  const wrapped = prepared.wrap ? prepared.wrap(command) : command;
  const [program, ...args] = wrapped;
  if (program === undefined) throw new Error('empty command');
  return {
    argv: [program, ...args],
    env: { ...env, ...prepared.env },
    cwd,
    sandbox: describeServerSandbox(sandbox, choices),
    finish: async () => {
      await prepared.finish();
    },
  };
}
