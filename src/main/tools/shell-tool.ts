// The `shell` tool: one command per call, in its own pty in the project folder, inside the OS
// sandbox where there is one. The model gets clean text plus exit code, signal and duration; the
// window gets the raw stream (colours kept) through ctx.onOutput.
import os from 'node:os';
import { Type } from '@sinclair/typebox';
import type { SandboxState } from '../../shared/tool-types';
import { classifyCommandLazily } from '../shell/lazy-classifier';
import { cleanEnvironment, GIT_AS_CONFIGURED, withoutSecrets } from '../shell/command-env';
import type { GitMode } from '../shell/command-env';
import { runInPty } from '../shell/pty-session';
import type { PtyRunResult } from '../shell/pty-session';
import { defaultBasis, planCommandRun } from '../shell/sandbox-access';
import { probeSandbox, sandboxForCall } from '../shell/sandbox-probe';
import { prepareSandbox } from '../shell/sandbox-wrap';
import { repositoryDiffPrograms } from '../shell/repository-diff-programs';
import { shellSessions } from '../shell/shell-sessions';
import type { ShellSessions } from '../shell/shell-sessions';
import { commandWithNetworkTaint } from './outside-content';
import { defineTool, ToolError } from './tool';
import type { AnyTool } from './tool';

export interface ShellToolOptions {
  /** Where running commands are registered so the person can type into them. */
  readonly sessions?: ShellSessions;
  /** Defaults to the cached probe. */
  readonly probe?: () => Promise<SandboxState>;
  /** The person's environment; `process.env` when absent. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Further variable names holding secrets, removed from the command's environment. */
  readonly secretNames?: readonly string[];
  /** Secret values (the API key): a variable carrying one is removed wherever it is. */
  readonly secretValues?: readonly string[];
  /** Hidden by the sandbox; `os.homedir()` when absent. */
  readonly home?: string;
  readonly defaultTimeoutSeconds?: number;
  readonly maxTimeoutSeconds?: number;
  readonly quietMs?: number;
  readonly budgetBytes?: number;
}

export const DEFAULT_TIMEOUT_SECONDS = 120;
export const MAX_TIMEOUT_SECONDS = 600;

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

function statusLine(result: PtyRunResult, timeoutSeconds: number): string {
  switch (result.ending) {
    case 'timed-out':
      return `timed out after ${timeoutSeconds} s; the command and everything it started were killed`;
    case 'stopped':
      return 'stopped; the command and everything it started were killed';
    case 'exited':
      return result.signal
        ? `killed by ${result.signal}`
        : `exit code ${result.exitCode ?? 'unknown'}`;
  }
}

export function formatShellResult(
  result: PtyRunResult,
  timeoutSeconds: number,
  sandbox: SandboxState,
  notes: readonly string[] = [],
): string {
  const lines = [result.text.trimEnd() || '(no output)', ''];
  lines.push(...notes);
  if (result.truncated)
    lines.push(`[output was ${result.totalBytes} bytes; the middle was left out]`);
  if (result.mayBeWaitingForInput)
    lines.push('Note: the command may be waiting for input (it was quiet before it ended).');
  lines.push(
    `${statusLine(result, timeoutSeconds)} · ${seconds(result.durationMs)} · ${sandbox.available ? 'sandbox' : 'no sandbox'}: ${sandbox.description}`,
  );
  return lines.join('\n');
}

export function createShellTool(options: ShellToolOptions = {}): AnyTool {
  const probe = options.probe ?? probeSandbox;
  const defaultTimeout = options.defaultTimeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
  const maxTimeout = options.maxTimeoutSeconds ?? MAX_TIMEOUT_SECONDS;
  return defineTool({
    name: 'shell',
    description:
      `Runs one shell command (bash) in the project folder in its own terminal and returns its output, exit code and duration. ` +
      `Output is cleaned (no colours) and long output keeps its beginning and end. Interactive commands get no input from you; ` +
      `prefer non-interactive flags. Default time limit ${defaultTimeout} s, at most ${maxTimeout} s (timeout_seconds). ` +
      `Where available the command runs in a sandbox: /tmp is private, the home folder is hidden, and the network may be off; ` +
      `the project folder is read-only for read-only commands and writable for others (.git only for git commands).`,
    parameters: Type.Object({
      command: Type.String({
        minLength: 1,
        description: 'The command line, as you would type it in bash.',
      }),
      timeout_seconds: Type.Optional(
        Type.Number({
          minimum: 1,
          description: `Time limit in seconds (default ${defaultTimeout}, at most ${maxTimeout}).`,
        }),
      ),
    }),
    effect: 'exec',
    editable: 'command',
    // The tool enforces its own limit and kills the process tree; the registry's is a backstop.
    timeoutMs: (maxTimeout + 30) * 1000,
    target: (args) => ({ kind: 'command', command: args.command }),
    async preview(args, ctx) {
      const [verdict, state] = await Promise.all([
        classifyCommandLazily(args.command, ctx.folder, { untouchable: ctx.services.dataFolders }),
        probe(),
      ]);
      // A card is shown only for what the person will approve: that runs as its text.
      const planned = planCommandRun('person', verdict);
      return {
        kind: 'command',
        command: args.command,
        cwd: ctx.folder,
        parts: verdict.parts,
        sandbox: sandboxForCall(
          state,
          planned.ok && planned.network && ctx.services.allowShellNetwork === true,
          planned.ok ? planned.access : { kind: 'read-only' },
        ),
      };
    },
    async execute(args, ctx) {
      const timeoutSeconds = Math.min(
        Math.max(1, args.timeout_seconds ?? defaultTimeout),
        maxTimeout,
      );
      // The verdict the gate decided on is the one this runs from; only without a gate is the
      // command classified here (and then it runs read-only exactly when it is judged so).
      const given = ctx.permit?.command;
      const [verdict, state] = await Promise.all([
        given?.command === args.command
          ? given
          : classifyCommandLazily(args.command, ctx.folder, {
              untouchable: ctx.services.dataFolders,
            }),
        probe(),
      ]);
      const run = planCommandRun(ctx.permit?.basis ?? defaultBasis(verdict), verdict);
      if (!run.ok) throw new ToolError(`The command was not run: ${run.reason}.`);
      const plan = {
        folder: ctx.folder,
        home: options.home ?? os.homedir(),
        allowNetwork: run.network && ctx.services.allowShellNetwork === true,
        access: run.access,
        dataFolders: ctx.services.dataFolders ?? [],
      };
      // Secrets leave first, so nothing derived from this environment (git's config lookups, the
      // clean environment of a read-only command) can carry them either.
      const env = withoutSecrets(
        options.env ?? process.env,
        options.secretNames,
        options.secretValues,
      );
      // No one approved a read-only command, so git runs nothing a repository's config names.
      const git: GitMode = run.readOnly
        ? { kind: 'read-only', refusedKeys: await repositoryDiffPrograms(ctx.folder, env) }
        : GIT_AS_CONFIGURED;
      const sandbox = await prepareSandbox(state, plan);
      let result: PtyRunResult;
      try {
        result = await runInPty({
          command: run.text,
          folder: ctx.folder,
          timeoutMs: timeoutSeconds * 1000,
          signal: ctx.signal,
          onData: ctx.onOutput,
          env: run.readOnly
            ? { ...cleanEnvironment(env, ctx.folder), ...sandbox.env }
            : { ...env, ...sandbox.env },
          secretNames: options.secretNames,
          secretValues: options.secretValues,
          git,
          wrap: sandbox.wrap,
          contained: sandbox.contained,
          quietMs: options.quietMs,
          budgetBytes: options.budgetBytes,
          sessions: options.sessions ?? shellSessions,
          callId: ctx.callId,
        });
      } catch (error) {
        // Even when the run fails, nothing the command left in .git may survive.
        await sandbox.finish();
        throw error;
      }
      const notes = await sandbox.finish();
      return {
        output: formatShellResult(
          result,
          timeoutSeconds,
          sandboxForCall(state, plan.allowNetwork, run.access),
          notes,
        ),
        isError: result.ending !== 'exited' || result.exitCode !== 0,
        // What a command with the network printed may come from anywhere (a page, a package's
        // install script): it taints the session as a fetch does.
        ...(plan.allowNetwork ? { outsideContent: commandWithNetworkTaint(args.command) } : {}),
      };
    },
  });
}
