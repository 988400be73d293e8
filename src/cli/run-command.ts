// `tandem run`: one task against a folder, headless. Flags in, RunEvents out, an exit code that
// says how it ended.
import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { RunFinishReason } from '../shared/events';
import { PERMISSION_MODES, type PermissionMode } from '../shared/tool-types';
import { createOpenAIProvider } from '../main/agent/provider';
import { openWorkspaceAgent } from '../main/agent/workspace-agent';
import { JsonFilePermissionsStore } from '../main/permissions/project-permissions-store';
import { DEFAULT_CONNECT_TIMEOUT_MS } from '../main/mcp/mcp-connection';
import { McpHost } from '../main/mcp/mcp-host';
import { JsonFileMcpSettingsStore } from '../main/mcp/mcp-stores';
import { probeSandbox } from '../main/shell/sandbox-probe';
import { defaultDataDir } from '../main/store/data-dir';
import { CliFailure, EXIT, type CliDeps, type CliIo } from './cli-io';
import type { CliCommand } from './commands';
import { createEventPrinter } from './run-output';
import {
  MCP_FLAG_OPTIONS,
  MCP_FLAG_USAGE,
  readCliMcpServers,
  type McpFlagValues,
} from './mcp-cli-servers';
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
  --session ID         continue an earlier session of this folder
  --data-dir DIR       where transcripts are kept (default: $TANDEM_HOME or ~/.local/share/tandem)
  --json               print every RunEvent as one JSON line on stdout
${MCP_FLAG_USAGE}
  -h, --help           show this help

MCP servers: those of --mcp-config, and the project's .mcp.json once accepted
("tandem mcp accept"). Local servers run inside the sandbox where there is one.
`;

interface RunFlags {
  readonly folder: string;
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKeyEnv: string;
  /** Absent: the project's stored mode applies. */
  readonly mode?: PermissionMode;
  readonly maxSteps: number;
  readonly session?: string;
  readonly dataDir: string;
  readonly json: boolean;
  readonly task: string;
  readonly mcp: McpFlagValues;
}

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

function parseRunFlags(argv: readonly string[], io: CliIo): RunFlags | 'help' {
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
        'api-key-env': { type: 'string', default: 'OPENAI_API_KEY' },
        mode: { type: 'string' },
        'max-steps': { type: 'string', default: '50' },
        session: { type: 'string' },
        'data-dir': { type: 'string' },
        json: { type: 'boolean', default: false },
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
  const maxSteps = Number(values['max-steps']);
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new CliFailure(
      `--max-steps must be a whole number of at least 1 (got "${values['max-steps']}")`,
      EXIT.usage,
    );
  }
  if (!values['base-url'])
    throw new CliFailure('--base-url is required (an OpenAI-compatible endpoint)', EXIT.usage);
  if (!/^https?:\/\//.test(values['base-url'])) {
    throw new CliFailure(
      `--base-url must start with http:// or https:// (got "${values['base-url']}")`,
      EXIT.usage,
    );
  }
  if (!values.model) throw new CliFailure('--model is required', EXIT.usage);
  const task = positionals.join(' ').trim();
  if (!task)
    throw new CliFailure('no task given: put the task in quotes after the flags', EXIT.usage);
  return {
    folder: resolve(io.cwd, values.folder ?? '.'),
    baseUrl: values['base-url'],
    model: values.model,
    apiKeyEnv: values['api-key-env'],
    ...(mode ? { mode } : {}),
    maxSteps,
    ...(values.session ? { session: values.session } : {}),
    dataDir: values['data-dir'] ? resolve(io.cwd, values['data-dir']) : defaultDataDir(io.env),
    json: values.json,
    task,
    mcp: {
      'mcp-config': values['mcp-config'],
      'mcp-trust': values['mcp-trust'],
      'mcp-write': values['mcp-write'],
      'mcp-network': values['mcp-network'],
    },
  };
}

async function runTask(flags: RunFlags, io: CliIo, deps: CliDeps): Promise<number> {
  if (!isFolder(flags.folder))
    throw new CliFailure(`folder does not exist: ${flags.folder}`, EXIT.setup);
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
    ...(Number.isFinite(retryBase) && retryBase >= 0 && io.env.TANDEM_RETRY_BASE_MS
      ? { retry: { baseDelayMs: retryBase } }
      : {}),
  });

  const folder = realpathSync(flags.folder);
  // A damaged permissions file would refuse every call while the run "succeeds": stop here.
  try {
    await new JsonFilePermissionsStore(flags.dataDir).load(folder);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
    throw new CliFailure(`cannot read the project's permissions: ${reason}`, EXIT.setup);
  }

  // MCP servers: the --mcp-config file's and the project's accepted .mcp.json, started now (in
  // parallel) while the rest is set up; the first model request waits for them.
  const mcpServers = await readCliMcpServers(flags.mcp, io.cwd);
  const shown = terminalTextFor(io.stderr, io.env);
  for (const problem of mcpServers.problems)
    io.stderr.write(`tandem run: ${shown.line(problem)}\n`);
  const mcp = new McpHost({
    store: new JsonFileMcpSettingsStore(flags.dataDir),
    sandbox: probeSandbox,
    ...(mcpServers.servers ? { cli: mcpServers.servers } : {}),
  });
  await mcp.openFolder(folder);
  const project = (await mcp.overview()).project;
  if (project.kind === 'pending') {
    io.stderr.write(
      `tandem run: this project's .mcp.json is ${project.changed ? 'changed and ' : ''}not accepted, so its servers do not start (see "tandem mcp accept --folder ${shown.line(folder)}")\n`,
    );
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
      ...(flags.session ? { sessionId: flags.session } : {}),
      ...(deps.createTools ? { tools: deps.createTools() } : {}),
      mcp,
      // Headless: no window shows tools arriving later, so the first request waits for every
      // server to be ready or failed (each is bounded by its own start time limit).
      mcpWaitMs: DEFAULT_CONNECT_TIMEOUT_MS,
    });
  } catch (error) {
    permissions.close();
    await mcp.close();
    throw new CliFailure(error instanceof Error ? error.message : String(error), EXIT.setup);
  }
  const agent = workspace.agent;

  agent.onEvent(createEventPrinter(io, flags.json));
  let finishMessage = '';
  agent.onEvent((event) => {
    if (event.type === 'run-finished') finishMessage = event.message ?? '';
  });
  const run = agent.startRun(flags.task);
  const removeInterrupt = io.onInterrupt?.(() => agent.stop(run.runId));
  try {
    const reason = await run.done;
    if (!flags.json)
      io.stderr.write(`session ${run.sessionId} (continue it with --session ${run.sessionId})\n`);
    return report(reason, finishMessage, io);
  } finally {
    removeInterrupt?.();
    permissions.close();
    await workspace.close();
    await mcp.close();
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

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
