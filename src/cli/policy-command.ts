// `tandem policy`: what the permission engine would decide for a command or a path, and why,
// computed by the same decidePolicy the runner uses, with the project's stored mode and rules.
import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { PermissionMode, SandboxState, ToolEffect } from '../shared/tool-types';
import { probeSandbox } from '../main/shell/sandbox-probe';
import { defaultDataDir, realDataFolder } from '../main/store/data-dir';
import type { ToolTarget } from '../main/tools/tool';
import { GrantBook } from '../main/permissions/grant-book';
import { MODE_LABELS } from '../shared/mode-labels';
import { parseMode } from '../main/permissions/modes';
import { describeRule } from '../main/permissions/permission-rule';
import { decidePolicy, type PolicyDecision } from '../main/permissions/policy';
import type { PolicyDeps } from '../main/permissions/policy-deps';
import { JsonFilePermissionsStore } from '../main/permissions/project-permissions-store';
import { realPolicyDeps } from '../main/permissions/real-policy-deps';
import type { CliCommand } from './commands';
import { jsonLine, PLAIN_TERMINAL_TEXT, terminalTextFor, type TerminalText } from './terminal-text';

export interface CommandIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

export interface PolicyCommandOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Relative --folder values resolve against this (the process's cwd when absent). */
  readonly cwd?: string;
  readonly deps?: PolicyDeps;
  readonly sandbox?: () => Promise<SandboxState>;
  /** How the command, paths and reasons are shown (default: plain visible escapes). */
  readonly text?: TerminalText;
}

export const POLICY_USAGE =
  'usage: tandem policy --folder DIR (--command "CMD" | --path P --access read|write) [--mode ask|auto-edit|read-only|autonomous] [--data-dir DIR] [--json]';

const POLICY_EXAMPLES = `
Says whether a command or a file access would run, ask or be refused in a project, and why: the
same decision the runner makes, with the project's stored mode and rules.

Examples:
  tandem policy --folder . --command "npm test && git push"
  tandem policy --folder . --command "ls -la src" --json
  tandem policy --folder . --path ../secrets.txt --access read
  tandem policy --folder . --path src/app.ts --access write --mode auto-edit
`;

/** Exit code 0 whatever the decision; 2 for bad flags; 1 when the project's settings cannot be read. */
export async function policyCommand(
  argv: readonly string[],
  io: CommandIo,
  options: PolicyCommandOptions = {},
): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout(`${POLICY_USAGE}\n${POLICY_EXAMPLES}`);
    return 0;
  }
  const parsed = parseFlags(argv);
  if (!parsed.ok) {
    io.stderr(`tandem policy: ${parsed.error}\n${POLICY_USAGE}\n`);
    return 2;
  }
  const flags = parsed.flags;
  const text = options.text ?? PLAIN_TERMINAL_TEXT;
  let folder: string;
  try {
    folder = await realpath(resolve(options.cwd ?? process.cwd(), flags.folder));
  } catch {
    io.stderr(
      `tandem policy: the folder ${text.line(flags.folder)} does not exist\n${POLICY_USAGE}\n`,
    );
    return 2;
  }
  const env = options.env ?? process.env;
  const dataDir = flags.dataDir ?? defaultDataDir(env);
  const store = new JsonFilePermissionsStore(dataDir);
  let stored;
  try {
    stored = await store.load(folder);
  } catch (error) {
    // The message can quote the damaged file.
    io.stderr(`tandem policy: ${text.line((error as Error).message)}\n`);
    return 1;
  }
  const mode = flags.mode ?? stored.mode;
  const sandbox = await (options.sandbox ?? probeSandbox)();
  const { toolName, effect, target } = subject(flags);
  const decided = await decidePolicy(
    {
      toolName,
      effect,
      target,
      folder,
      mode,
      network: stored.network,
      rules: stored.rules.map((r) => r.rule),
      grants: new GrantBook().active(folder, null),
      sandbox,
      dataFolders: [realDataFolder(resolve(options.cwd ?? process.cwd(), dataDir))],
    },
    options.deps ?? realPolicyDeps,
  );
  const report = toReport(folder, flags, mode, decided);
  io.stdout(flags.json ? jsonLine(report) : render(report, text));
  return 0;
}

/** The row for the `tandem` subcommand table. */
export const policyCliCommand: CliCommand = {
  name: 'policy',
  summary: 'show what the permission engine decides for a command or a path, and why',
  usage: `${POLICY_USAGE}\n`,
  run: (argv, io) =>
    policyCommand(
      argv,
      {
        stdout: (text) => void io.stdout.write(text),
        stderr: (text) => void io.stderr.write(text),
      },
      { env: io.env, cwd: io.cwd, text: terminalTextFor(io.stdout, io.env) },
    ),
};

interface Flags {
  readonly folder: string;
  readonly command?: string;
  readonly path?: string;
  readonly access?: 'read' | 'write';
  readonly mode?: PermissionMode;
  readonly dataDir?: string;
  readonly json: boolean;
}

function parseFlags(
  argv: readonly string[],
): { ok: true; flags: Flags } | { ok: false; error: string } {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        folder: { type: 'string' },
        command: { type: 'string' },
        path: { type: 'string' },
        access: { type: 'string' },
        mode: { type: 'string' },
        'data-dir': { type: 'string' },
        json: { type: 'boolean' },
      },
    }));
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  if (!values.folder) return { ok: false, error: '--folder is required' };
  const hasCommand = values.command !== undefined;
  const hasPath = values.path !== undefined;
  if (hasCommand === hasPath)
    return { ok: false, error: 'give exactly one of --command or --path' };
  if (hasCommand && values.access !== undefined)
    return { ok: false, error: '--access goes with --path, not --command' };
  if (hasCommand && values.command === '') return { ok: false, error: '--command is empty' };
  if (hasPath && values.access !== 'read' && values.access !== 'write') {
    return { ok: false, error: '--path needs --access read or --access write' };
  }
  let mode: PermissionMode | undefined;
  if (values.mode !== undefined) {
    const known = parseMode(values.mode);
    if (!known) return { ok: false, error: `unknown mode ${values.mode}` };
    mode = known;
  }
  return {
    ok: true,
    flags: {
      folder: values.folder,
      json: values.json ?? false,
      ...(hasCommand
        ? { command: values.command }
        : { path: values.path, access: values.access as 'read' | 'write' }),
      ...(mode ? { mode } : {}),
      ...(values['data-dir'] ? { dataDir: values['data-dir'] } : {}),
    },
  };
}

/** The same tool names and targets the built-in tools give the policy. */
function subject(flags: Flags): { toolName: string; effect: ToolEffect; target: ToolTarget } {
  if (flags.command !== undefined) {
    return {
      toolName: 'shell',
      effect: 'exec',
      target: { kind: 'command', command: flags.command },
    };
  }
  const access = flags.access ?? 'read';
  return {
    toolName: access === 'read' ? 'read_file' : 'write_file',
    effect: access === 'read' ? 'read' : 'write',
    target: { kind: 'path', path: flags.path ?? '', access },
  };
}

interface PolicyReport {
  readonly decision: PolicyDecision['decision'];
  readonly reasons: readonly string[];
  readonly mode: PermissionMode;
  /** The mode asked for, when it could not be honoured (autonomous without a sandbox). */
  readonly requestedMode?: PermissionMode;
  readonly folder: string;
  readonly command?: string;
  readonly parts?: PolicyDecision['parts'];
  readonly path?: string;
  readonly access?: 'read' | 'write';
  readonly resolvedPath?: string;
  readonly provenance?: string;
  readonly refusal?: string;
  readonly grantable: readonly string[];
}

function toReport(
  folder: string,
  flags: Flags,
  mode: PermissionMode,
  d: PolicyDecision,
): PolicyReport {
  return {
    decision: d.decision,
    reasons: d.reasons,
    mode: d.mode,
    folder,
    ...(flags.command !== undefined ? { command: flags.command, parts: d.parts ?? [] } : {}),
    ...(flags.path !== undefined ? { path: flags.path, access: flags.access } : {}),
    ...(d.resolvedPath !== undefined ? { resolvedPath: d.resolvedPath } : {}),
    ...(d.provenance !== undefined ? { provenance: d.provenance } : {}),
    ...(d.refusal !== undefined ? { refusal: d.refusal } : {}),
    grantable: d.grantable.map(describeRule),
    ...(mode !== d.mode ? { requestedMode: mode } : {}),
  };
}

// The command, its parts, paths, reasons and rules are the person's or the model's text: each
// goes through `t`; the labels are ours.
function render(r: PolicyReport, t: TerminalText): string {
  const lines = [
    `decision: ${r.decision}`,
    `mode: ${MODE_LABELS[r.mode]}`,
    `folder: ${t.line(r.folder)}`,
  ];
  if (r.command !== undefined) {
    lines.push(`command: ${t.line(r.command)}`, 'parts:');
    for (const part of r.parts ?? []) {
      lines.push(`  ${part.safe ? 'read-only    ' : 'not read-only'}  ${t.line(part.text)}`);
      for (const reason of part.reasons) lines.push(`      ${t.line(reason)}`);
    }
  }
  if (r.path !== undefined) lines.push(`path: ${t.line(r.path)} (${r.access})`);
  if (r.resolvedPath !== undefined) lines.push(`resolved: ${t.line(r.resolvedPath)}`);
  lines.push('reasons:', ...r.reasons.map((reason) => `  - ${t.line(reason)}`));
  if (r.provenance !== undefined) lines.push(`runs because: ${t.line(r.provenance)}`);
  if (r.refusal !== undefined) lines.push(`the model would be told: ${t.line(r.refusal)}`);
  if (r.grantable.length > 0)
    lines.push(`"always allow" would store: ${r.grantable.map((g) => t.line(g)).join(', ')}`);
  return `${lines.join('\n')}\n`;
}
