// `tandem run`: one task against a folder, headless. Flags in, RunEvents out, an exit code that
// says how it ended.
import { tandemFolders } from '../main/store/tandem-folders';
import { homedir } from 'node:os';
import type { RunFinishReason } from '../shared/events';
import type { ModelPrices, ModelSettings } from '../shared/model-settings';
import type { UsageTotals } from '../shared/tool-types';
import { describeContextUse, describeTotals, type ContextUseFigures } from '../shared/usage-text';
import { createOpenAIProvider } from '../main/agent/provider';
import { openWorkspaceAgent } from '../main/agent/workspace-agent';
import { DEFAULT_CONNECT_TIMEOUT_MS } from '../main/mcp/mcp-connection';
import { McpHost } from '../main/mcp/mcp-host';
import { JsonFileMcpSettingsStore } from '../main/mcp/mcp-stores';
import { JsonFilePermissionsStore } from '../main/permissions/project-permissions-store';
import { forgetSecretVariables } from '../main/shell/command-env';
import { probeSandbox } from '../main/shell/sandbox-probe';
import { CliFailure, EXIT, type CliDeps, type CliIo } from './cli-io';
import { styleFor, type CliStyle } from './cli-style';
import type { CommandMain } from './commands';
import { readCliMcpServers } from './mcp-cli-servers';
import { chooseProvider, DEFAULT_API_KEY_ENV } from './provider-choice';
import { parseRunFlags, RUN_USAGE, runTimeouts, type RunFlags } from './run-flags';
import { runHeader } from './run-header';
import { createEventPrinter } from './run-output';
import { createRunPermissionGate } from './run-permission-gate';
import { holdOutput } from './held-output';
import { sandboxAfterFirstRequest } from './header-sandbox';
import { checkedProjectFolder } from './project-folder';

export const runCommand: CommandMain = async (argv, io, deps) => {
  let style = styleFor(io.stderr, io.env, argv.includes('--no-color'));
  try {
    const flags = parseRunFlags(argv, io);
    if (flags === 'help') {
      io.stdout.write(RUN_USAGE);
      return EXIT.ok;
    }
    style = styleFor(io.stderr, io.env, flags.noColor);
    return await runTask(flags, io, deps, style);
  } catch (error) {
    if (error instanceof CliFailure) {
      // The message can quote a file (the permissions store) or a provider's reply.
      io.stderr.write(`${style.paint.red('tandem run:')} ${style.text.line(error.message)}\n`);
      if (error.exitCode === EXIT.usage) io.stderr.write('Try "tandem run --help".\n');
      return error.exitCode;
    }
    throw error;
  }
};

async function runTask(
  flags: RunFlags,
  io: CliIo,
  deps: CliDeps,
  style: CliStyle,
): Promise<number> {
  const folder = checkedProjectFolder(flags.folder, flags.dataDir, io);
  const provider = await chooseProvider({
    ...(flags.baseUrl !== undefined ? { baseUrl: flags.baseUrl } : {}),
    ...(flags.model !== undefined ? { model: flags.model } : {}),
    ...(flags.apiKeyEnv !== undefined ? { apiKeyEnv: flags.apiKeyEnv } : {}),
    env: io.env,
  });
  const apiKeyEnv = flags.apiKeyEnv ?? DEFAULT_API_KEY_ENV;
  const secretValues = provider.apiKey !== undefined ? [provider.apiKey] : [];
  // Read once, then gone from this process's environment (in a real run io.env is process.env):
  // no child Tandem starts (a command, a git helper, a probe) inherits the key or its variable.
  forgetSecretVariables(io.env, [apiKeyEnv], secretValues);
  const retryBase = Number(io.env.TANDEM_RETRY_BASE_MS);
  const chat = createOpenAIProvider({
    baseUrl: provider.baseUrl,
    model: provider.model,
    // Local servers without keys still need a non-empty string for the SDK (as in the window).
    apiKey: provider.apiKey ?? 'no-key',
    timeouts: runTimeouts(flags, provider.timeouts),
    ...(Number.isFinite(retryBase) && retryBase >= 0 && io.env.TANDEM_RETRY_BASE_MS
      ? { retry: { baseDelayMs: retryBase } }
      : {}),
  });

  // A damaged permissions file would refuse every call while the run "succeeds": stop here.
  let stored;
  try {
    stored = await new JsonFilePermissionsStore(flags.dataDir).load(folder);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
    throw new CliFailure(`cannot read the project's permissions: ${reason}`, EXIT.setup);
  }

  // MCP servers: the --mcp-config file's and the project's accepted .mcp.json, started now (in
  // parallel) while the rest is set up; the first model request waits for them. They get the
  // same walls as commands: no key or its variable, Tandem's data folder hidden.
  const mcpServers = await readCliMcpServers(flags.mcp, io.cwd);
  const mcp = new McpHost({
    store: new JsonFileMcpSettingsStore(flags.dataDir),
    sandbox: probeSandbox,
    dataFolders: tandemFolders(flags.dataDir, io.env),
    childSecrets: async () => ({ names: [apiKeyEnv], values: secretValues }),
    ...(mcpServers.servers ? { cli: mcpServers.servers } : {}),
  });
  await mcp.openFolder(folder);
  const mcpNotes = [...mcpServers.problems];
  let project;
  try {
    project = (await mcp.overview()).project;
  } catch (error) {
    await mcp.close();
    const reason = error instanceof Error ? error.message : String(error);
    throw new CliFailure(`cannot read the MCP settings: ${reason}`, EXIT.setup);
  }
  if (project.kind === 'pending') {
    mcpNotes.push(
      `this project's .mcp.json is ${project.changed ? 'changed and ' : ''}not accepted, so its servers do not start (see "tandem mcp accept --folder ${folder}")`,
    );
  }

  // The header names the sandbox, probed (one bwrap run) only once the first request is out: until
  // the header is written, what the run prints (cards included) is kept in order behind it.
  const held = flags.json ? undefined : holdOutput(io);
  const out = held?.io ?? io;

  // The permission engine: stored mode and rules, grants, the broker, the terminal as the card.
  const permissions = createRunPermissionGate({
    folder,
    dataDir: flags.dataDir,
    ...(flags.mode ? { mode: flags.mode } : {}),
    // Read when a card first asks, not now (see processIo).
    get stdin() {
      return io.stdin;
    },
    stdinIsTTY: io.stdinIsTTY,
    write: (text) => void out.stderr.write(text),
    // A card waits for the header (and what is held behind it): no line answers an unseen card.
    // (Cards come only once the run has started, after headerWritten below is made.)
    beforeCard: () => headerWritten(),
    style,
  });

  // The same composition as the window, so CLI runs are journaled and can be undone.
  let workspace;
  try {
    workspace = await openWorkspaceAgent({
      provider: chat,
      gate: permissions.gate,
      folder,
      dataDir: flags.dataDir,
      maxSteps: flags.maxSteps,
      ...modelOptions(flags, provider.modelSettings ?? {}),
      secretNames: [apiKeyEnv],
      secretValues,
      ...(flags.session ? { sessionId: flags.session } : {}),
      ...(deps.createTools ? { tools: deps.createTools() } : {}),
      mcp,
      // Headless: no window shows tools arriving later, so the first request waits for every
      // server to be ready or failed (each is bounded by its own start time limit).
      mcpWaitMs: DEFAULT_CONNECT_TIMEOUT_MS,
      // The first request follows at once: the project's scan starts once it is out.
      prepareTracking: 'first-request',
    });
  } catch (error) {
    permissions.close();
    await mcp.close();
    throw new CliFailure(error instanceof Error ? error.message : String(error), EXIT.setup);
  }
  const agent = workspace.agent;
  // Another Tandem process owns the project: say who, once, before the run (through the terminal
  // sanitiser, like every text Tandem did not write itself).
  if (workspace.readOnly) {
    io.stderr.write(
      `${style.paint.yellow('tandem run:')} ${style.text.line(workspace.readOnly)}\n`,
    );
  }
  const problems = workspace.loadProblems();
  if (problems.length > 0) {
    // File names and reasons can carry anything a damaged file held: shown, never acted on.
    io.stderr.write(
      `${style.paint.yellow('tandem run:')} skipped damaged records: ${style.text.line(problems.join('; '))}\n`,
    );
  }

  // Names, paths and reasons from a config file or a project's .mcp.json: shown, never acted on.
  const notes = mcpNotes
    .map((note) => `${style.paint.yellow('tandem run:')} ${style.text.line(note)}\n`)
    .join('');
  const headerSandbox = held ? sandboxAfterFirstRequest() : undefined;
  const header = headerSandbox?.sandbox.then((sandbox) =>
    held?.release(
      runHeader(
        {
          folder,
          home: io.env.HOME || homedir(),
          model: provider.model,
          baseUrl: provider.baseUrl,
          mode: flags.mode ?? stored.mode,
          sandbox,
        },
        style,
      ) + notes,
    ),
  );
  if (!held) io.stderr.write(notes);
  // A run that ended before its first request went out probes now: the header still comes first.
  const headerWritten = async (): Promise<void> => {
    headerSandbox?.probeNow();
    await header;
  };
  agent.onEvent(
    createEventPrinter(out, {
      json: flags.json,
      trace: style,
      answer: styleFor(io.stdout, io.env, flags.noColor),
      // marked is loaded only to draw on a terminal; piped output passes the markdown through.
      ...(io.stdout.isTTY === true && !flags.json
        ? { markdown: await import('./markdown-terminal') }
        : {}),
    }),
  );
  let finishMessage = '';
  let session: UsageTotals | undefined;
  let context: ContextUseFigures | undefined;
  // Whether the model answered in this run: a session whose first request failed holds only the
  // task, and is not worth continuing.
  let answered = false;
  agent.onEvent((event) => {
    if (event.type === 'run-finished') finishMessage = event.message ?? '';
    if (event.type === 'assistant-message' || event.type === 'tool-call-started') answered = true;
    if ((event.type === 'usage' || event.type === 'context-compacted') && event.session)
      session = event.session;
    if (event.type === 'context-use') context = event;
  });
  const run = agent.startRun(flags.task);
  // Ctrl-C also starts the header's probe if the request never went out: the held output follows.
  const removeInterrupt = io.onInterrupt?.(() => {
    headerSandbox?.probeNow();
    agent.stop(run.runId);
  });
  try {
    const reason = await run.done;
    await headerWritten();
    if (!flags.json) {
      if (session)
        io.stderr.write(style.paint.dim(`usage this session: ${describeTotals(session)}`) + '\n');
      if (context)
        io.stderr.write(
          style.paint.dim(`context at the end: ${describeContextUse(context)}`) + '\n',
        );
    }
    if (!flags.json && (answered || flags.session)) {
      io.stderr.write(
        style.paint.dim(`session ${run.sessionId} (continue it with --session ${run.sessionId})`) +
          '\n',
      );
    }
    return report(reason, finishMessage, io, style);
  } finally {
    await headerWritten();
    removeInterrupt?.();
    permissions.close();
    await workspace.close();
    await mcp.close();
  }
}

function report(
  reason: RunFinishReason,
  finishMessage: string,
  io: CliIo,
  style: CliStyle,
): number {
  // A run's last message can carry a provider's or the model's text.
  const message = style.text.line(finishMessage);
  const prefix = style.paint.red('tandem run:');
  switch (reason) {
    case 'done':
      return EXIT.ok;
    case 'error':
      io.stderr.write(`${prefix} ${message || 'the run failed'}\n`);
      return EXIT.runFailed;
    case 'max-steps':
      io.stderr.write(`${prefix} ${message}\n`);
      return EXIT.maxSteps;
    case 'stopped':
      io.stderr.write(`${prefix} stopped\n`);
      return EXIT.stopped;
  }
}

/** The flag's window wins over the one stored in Settings; prices come from Settings only. */
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
