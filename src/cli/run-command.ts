// `tandem run`: one task against a folder, headless. Flags in, RunEvents out, an exit code that
// says how it ended.
import { realpathSync, statSync } from 'node:fs';
import type { RunFinishReason } from '../shared/events';
import type { ModelPrices, ModelSettings } from '../shared/model-settings';
import type { UsageTotals } from '../shared/tool-types';
import { describeContextUse, describeTotals, type ContextUseFigures } from '../shared/usage-text';
import { JsonFileSettingsStore } from '../main/store/provider-settings';
import { createOpenAIProvider } from '../main/agent/provider';
import { openWorkspaceAgent } from '../main/agent/workspace-agent';
import { JsonFilePermissionsStore } from '../main/permissions/project-permissions-store';
import { CliFailure, EXIT, type CliDeps, type CliIo } from './cli-io';
import type { CliCommand } from './commands';
import { createEventPrinter } from './run-output';
import { parseRunFlags, type RunFlags } from './run-flags';
import { createRunPermissionGate } from './run-permission-gate';
import { terminalTextFor } from './terminal-text';

const USAGE = `Usage: tandem run --folder DIR --base-url URL --model NAME [options] "task"

Options:
  --folder DIR         the project folder (default: the current folder)
  --base-url URL       an OpenAI-compatible endpoint, e.g. https://api.openai.com/v1
  --model NAME         the model to use
  --api-key-env VAR    environment variable holding the API key (default: OPENAI_API_KEY)
  --mode MODE          ask | auto-edit | read-only | autonomous (default: the project's stored mode, else ask)
  --max-steps N        model turns before the run stops (default: 50)
  --context-tokens N   the model's context window in tokens (default: the model's entry in
                       <data-dir>/settings.json, else the provider's model list, else Tandem's table)
  --connect-timeout S  seconds for the provider to start answering (default: 60, at most 300)
  --idle-timeout S     seconds the provider may go quiet mid-answer (default: 120, at most 300)
  --request-timeout S  seconds one model request may take in all (default: 1200)
  --session ID         continue an earlier session of this folder
  --data-dir DIR       where transcripts are kept (default: $TANDEM_HOME or ~/.local/share/tandem)
  --json               print every RunEvent as one JSON line on stdout
  -h, --help           show this help
`;

export const runCommand: CliCommand = {
  name: 'run',
  summary: 'run one task in a project folder',
  usage: USAGE,
  async run(argv, io, deps) {
    try {
      const flags = parseRunFlags(argv, io);
      if (flags === 'help') {
        io.stdout.write(USAGE);
        return EXIT.ok;
      }
      return await runTask(flags, io, deps);
    } catch (error) {
      if (error instanceof CliFailure) {
        // The message can quote a file (the permissions store) or a provider's reply.
        io.stderr.write(`tandem run: ${terminalTextFor(io.stderr, io.env).line(error.message)}\n`);
        if (error.exitCode === EXIT.usage) io.stderr.write('Try "tandem run --help".\n');
        return error.exitCode;
      }
      throw error;
    }
  },
};

async function runTask(flags: RunFlags, io: CliIo, deps: CliDeps): Promise<number> {
  const kind = pathKind(flags.folder);
  if (kind !== 'folder') {
    throw new CliFailure(
      kind === 'missing'
        ? `folder does not exist: ${flags.folder}`
        : `not a folder: ${flags.folder} is a file; give the folder it is in`,
      EXIT.setup,
    );
  }
  const apiKey = io.env[flags.apiKeyEnv];
  if (!apiKey) {
    throw new CliFailure(
      `missing API key: set ${flags.apiKeyEnv} (or name another variable with --api-key-env; any value works for a local server without keys)`,
      EXIT.setup,
    );
  }
  const retryBase = Number(io.env.TANDEM_RETRY_BASE_MS);
  const provider = createOpenAIProvider({
    baseUrl: flags.baseUrl,
    model: flags.model,
    apiKey,
    timeouts: flags.timeouts,
    ...(Number.isFinite(retryBase) && retryBase >= 0 && io.env.TANDEM_RETRY_BASE_MS
      ? { retry: { baseDelayMs: retryBase } }
      : {}),
  });

  const folder = realpathSync(flags.folder);
  const model = await storedModelSettings(flags);
  // A damaged permissions file would refuse every call while the run "succeeds": stop here.
  try {
    await new JsonFilePermissionsStore(flags.dataDir).load(folder);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
    throw new CliFailure(`cannot read the project's permissions: ${reason}`, EXIT.setup);
  }

  // The permission engine: stored mode and rules, grants, the broker, the terminal as the card.
  const permissions = createRunPermissionGate({
    folder,
    dataDir: flags.dataDir,
    ...(flags.mode ? { mode: flags.mode } : {}),
    stdin: io.stdin,
    stdinIsTTY: io.stdinIsTTY,
    write: (text) => void io.stderr.write(text),
    text: terminalTextFor(io.stderr, io.env),
  });
  const gate = permissions.gate;

  // The same composition as the window, so CLI runs are journaled and can be undone there.
  let workspace;
  try {
    workspace = await openWorkspaceAgent({
      provider,
      gate,
      folder,
      dataDir: flags.dataDir,
      maxSteps: flags.maxSteps,
      ...modelOptions(flags, model),
      ...(flags.session ? { sessionId: flags.session } : {}),
      ...(deps.createTools ? { tools: deps.createTools() } : {}),
    });
  } catch (error) {
    permissions.close();
    throw new CliFailure(error instanceof Error ? error.message : String(error), EXIT.setup);
  }
  const agent = workspace.agent;
  const problems = workspace.loadProblems();
  if (problems.length > 0) {
    io.stderr.write(`tandem run: skipped damaged records: ${problems.join('; ')}\n`);
  }

  agent.onEvent(createEventPrinter(io, flags.json));
  let finishMessage = '';
  let session: UsageTotals | undefined;
  let context: ContextUseFigures | undefined;
  agent.onEvent((event) => {
    if (event.type === 'run-finished') finishMessage = event.message ?? '';
    if ((event.type === 'usage' || event.type === 'context-compacted') && event.session)
      session = event.session;
    if (event.type === 'context-use') context = event;
  });
  const run = agent.startRun(flags.task);
  const removeInterrupt = io.onInterrupt?.(() => agent.stop(run.runId));
  try {
    const reason = await run.done;
    if (!flags.json) {
      if (session) io.stderr.write(`usage this session: ${describeTotals(session)}\n`);
      if (context) io.stderr.write(`context at the end: ${describeContextUse(context)}\n`);
      io.stderr.write(`session ${run.sessionId} (continue it with --session ${run.sessionId})\n`);
    }
    return report(reason, finishMessage, io);
  } finally {
    removeInterrupt?.();
    permissions.close();
    await workspace.close();
  }
}

function report(reason: RunFinishReason, finishMessage: string, io: CliIo): number {
  // A run's last message can carry a provider's or the model's text.
  const message = terminalTextFor(io.stderr, io.env).line(finishMessage);
  switch (reason) {
    case 'done':
      return EXIT.ok;
    case 'error':
      io.stderr.write(`tandem run: ${message || 'the run failed'}\n`);
      return EXIT.runFailed;
    case 'max-steps':
      io.stderr.write(`tandem run: ${message}\n`);
      return EXIT.maxSteps;
    case 'stopped':
      io.stderr.write('tandem run: stopped\n');
      return EXIT.stopped;
  }
}

function pathKind(path: string): 'folder' | 'file' | 'missing' {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'file';
  } catch {
    return 'missing';
  }
}

/** What `<data-dir>/settings.json` says about this model (the window's Settings file format). */
async function storedModelSettings(flags: RunFlags): Promise<ModelSettings> {
  try {
    const stored = await new JsonFileSettingsStore(flags.dataDir).load();
    return stored.models?.[flags.model] ?? {};
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
    throw new CliFailure(`cannot read the settings: ${reason}`, EXIT.setup);
  }
}

/** The flag's window wins over the stored one; prices come from the settings only. */
function modelOptions(
  flags: RunFlags,
  stored: ModelSettings,
): { contextTokens?: number; prices?: ModelPrices } {
  const contextTokens = flags.contextTokens ?? stored.contextTokens;
  return {
    ...(contextTokens !== undefined ? { contextTokens } : {}),
    ...(stored.prices ? { prices: stored.prices } : {}),
  };
}
