// `tandem mcp list`: starts a folder's MCP servers as a session would (the --mcp-config file's,
// the data folder's own, and the project's accepted .mcp.json), waits for them to settle, and
// prints each with its state, how it is confined, and its tools with their effects.
// `tandem mcp accept`: shows the project's .mcp.json command lines and records the person's yes.
import { tandemFolders } from '../main/store/tandem-folders';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { McpOverview, McpServerInfo, ProjectMcpStatus } from '../shared/mcp-types';
import { McpHost } from '../main/mcp/mcp-host';
import { JsonFileMcpSettingsStore } from '../main/mcp/mcp-stores';
import { projectServersRunning } from '../main/mcp/mcp-server-list';
import { readProjectMcpFile, withAcceptedHash } from '../main/mcp/project-mcp-file';
import { describeStaleRules, staleServerRules } from '../main/mcp/stale-server-rules';
import { JsonFilePermissionsStore } from '../main/permissions/project-permissions-store';
import { probeSandbox } from '../main/shell/sandbox-probe';
import { defaultDataDir } from '../main/store/data-dir';
import { CliFailure, EXIT, type CliIo } from './cli-io';
import { styleFor, type CliStyle } from './cli-style';
import type { CommandMain } from './commands';
import { MCP_FLAG_OPTIONS, MCP_FLAG_USAGE, readCliMcpServers } from './mcp-cli-servers';
import { checkedProjectFolder } from './project-folder';
import { jsonLine } from './terminal-text';
import { groupDigits } from '../shared/digit-groups';

const USAGE = `Usage: tandem mcp list --folder DIR [options]
       tandem mcp accept --folder DIR [--yes] [--data-dir DIR]

list: start the folder's MCP servers, wait for them, and print their state and tools.
accept: show the project's .mcp.json command lines and accept exactly this content.

Options:
  --folder DIR         the project folder (default: the current folder)
${MCP_FLAG_USAGE}
  --wait-ms N          longest wait for servers to start, in ms (default: 30000, at most 600000)
  --data-dir DIR       Tandem's data folder (default: $TANDEM_HOME or ~/.local/share/tandem)
  --json               print the overview as one JSON line
  --yes                (accept) accept without the question; for scripts that already showed it
  --no-color           no colour (also: NO_COLOR=1, or output that is not a terminal)
  -h, --help           show this help

Examples:
  tandem mcp list --folder ~/code/app --mcp-config servers.json
  tandem mcp accept --folder ~/code/app
`;

const MAX_WAIT_MS = 600_000;

export const mcpCommand: CommandMain = async (argv, io) => {
  const errors = styleFor(io.stderr, io.env, argv.includes('--no-color'));
  try {
    return await runMcp(argv, io);
  } catch (error) {
    if (error instanceof CliFailure) {
      // The message can quote a config file, a server name or a path.
      io.stderr.write(`${errors.paint.red('tandem mcp:')} ${errors.text.line(error.message)}\n`);
      if (error.exitCode === EXIT.usage) io.stderr.write('Try "tandem mcp --help".\n');
      return error.exitCode;
    }
    throw error;
  }
};

async function runMcp(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        folder: { type: 'string' },
        ...MCP_FLAG_OPTIONS,
        'wait-ms': { type: 'string', default: '30000' },
        'data-dir': { type: 'string' },
        json: { type: 'boolean', default: false },
        yes: { type: 'boolean', default: false },
        'no-color': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new CliFailure((error as Error).message.split('\n')[0] ?? 'bad flags', EXIT.usage);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(USAGE);
    return EXIT.ok;
  }
  const [sub, ...extra] = positionals;
  if ((sub !== 'list' && sub !== 'accept') || extra.length > 0) {
    throw new CliFailure('say "list" or "accept"', EXIT.usage);
  }
  const waitMs = waitMsOf(values['wait-ms']);
  const dataDir = values['data-dir'] ? resolve(io.cwd, values['data-dir']) : defaultDataDir(io.env);
  // Refused like `tandem run` refuses it: a server would see the whole folder.
  const folder = checkedProjectFolder(resolve(io.cwd, values.folder ?? '.'), dataDir, io);
  const store = new JsonFileMcpSettingsStore(dataDir);
  const style = styleFor(io.stdout, io.env, values['no-color']);
  if (sub === 'accept') return accept(folder, dataDir, store, values.yes, io, style);

  const cli = await readCliMcpServers(values, io.cwd);
  const errors = styleFor(io.stderr, io.env, values['no-color']);
  for (const problem of cli.problems) {
    io.stderr.write(`${errors.paint.yellow('tandem mcp:')} ${errors.text.line(problem)}\n`);
  }
  const host = new McpHost({
    store,
    sandbox: probeSandbox,
    // As in a session: Tandem's data hidden; only Tandem's own key variables to drop here.
    dataFolders: tandemFolders(dataDir, io.env),
    tuning: { connectTimeoutMs: Math.max(1, waitMs), restartDelaysMs: [] },
    ...(cli.servers ? { cli: cli.servers } : {}),
  });
  try {
    await host.openFolder(folder);
    await host.whenSettled(waitMs);
    const overview = await host.overview();
    io.stdout.write(values.json ? jsonLine(overview) : describeOverview(overview, folder, style));
    return EXIT.ok;
  } finally {
    await host.close();
  }
}

/** Digits only: "1e3", "0x10" and " 5" are refused rather than read as numbers. */
function waitMsOf(raw: string): number {
  const value = /^[0-9]+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value > MAX_WAIT_MS) {
    throw new CliFailure(
      `--wait-ms must be a whole number of milliseconds from 0 to ${groupDigits(MAX_WAIT_MS)}, written with digits only (got "${raw}")`,
      EXIT.usage,
    );
  }
  return value;
}

function describeOverview(overview: McpOverview, folder: string, style: CliStyle): string {
  const { text } = style;
  const lines: string[] = [];
  if (overview.servers.length === 0) lines.push('No MCP servers run for this folder.');
  for (const server of overview.servers) lines.push(...describeServer(server, style), '');
  lines.push(...describeProject(overview.project, folder, style));
  for (const problem of overview.problems) lines.push(`problem: ${text.line(problem)}`);
  return `${lines.join('\n').trimEnd()}\n`;
}

/** Lines of a failed server's stderr shown under it; the window keeps the whole bounded tail. */
const STDERR_LINES = 5;

// Names, command lines, descriptions, annotations, reasons and stderr come from config files and
// from the servers themselves: every one goes through the terminal-text gate.
function describeServer(server: McpServerInfo, style: CliStyle): string[] {
  const { text, paint } = style;
  const status = server.status;
  const state =
    status.state === 'failed'
      ? paint.red(`failed: ${text.line(status.reason)}`)
      : status.state === 'ready'
        ? paint.green(status.state)
        : paint.yellow(status.state);
  const lines = [
    `${paint.bold(text.line(server.name))} (${server.source}, ${server.transport}) ${state}`,
    `  ${text.line(server.commandLine)}`,
    `  ${paint.dim(text.line(server.sandbox.description))}`,
    `  trusted: ${server.choices.trusted ? 'yes' : 'no'}; project ${server.choices.projectAccess}; network ${server.choices.network ? 'allowed' : 'off'}`,
  ];
  if (server.tools.length > 0) {
    const names = server.tools.map((t) => text.line(t.name));
    const width = Math.max(...names.map((n) => n.length));
    lines.push('  tools:');
    server.tools.forEach((tool, i) => {
      const asks =
        tool.effect === 'read' && !server.choices.trusted ? ', asks: server not trusted' : '';
      lines.push(
        `    ${(names[i] ?? '').padEnd(width)}  ${tool.effect.padEnd(7)}  (${text.line(tool.annotations)}${asks})`,
      );
    });
  }
  for (const problem of server.problems) lines.push(`  problem: ${text.line(problem)}`);
  if (status.state === 'failed' && server.stderrTail.trim() !== '') {
    lines.push('  stderr (last lines):');
    const tail = server.stderrTail.trimEnd().split('\n').slice(-STDERR_LINES);
    for (const line of tail) lines.push(`    ${paint.dim(text.line(line))}`);
  }
  return lines;
}

function describeProject(project: ProjectMcpStatus, folder: string, style: CliStyle): string[] {
  const { text } = style;
  switch (project.kind) {
    case 'none':
      return [];
    case 'invalid':
      return [`project .mcp.json: not used: ${text.line(project.reason)}`];
    case 'accepted':
      return ['project .mcp.json: accepted'];
    case 'pending':
      return [
        `project .mcp.json: ${project.changed ? 'changed since you accepted it' : 'not accepted'}; its ${project.servers.length} server(s) do not start until you run:`,
        `  tandem mcp accept --folder ${text.line(folder)}`,
      ];
  }
}

async function accept(
  folder: string,
  dataDir: string,
  store: JsonFileMcpSettingsStore,
  yes: boolean,
  io: CliIo,
  style: CliStyle,
): Promise<number> {
  const { text, paint } = style;
  const settings = await store.loadProject(folder);
  const file = await readProjectMcpFile(folder, settings.acceptedHash);
  const status = file.status;
  if (status.kind === 'none') throw new CliFailure(`${folder} has no .mcp.json`, EXIT.setup);
  if (status.kind === 'invalid') throw new CliFailure(status.reason, EXIT.setup);
  if (status.kind === 'accepted') {
    io.stdout.write('This .mcp.json is accepted already.\n');
    return EXIT.ok;
  }
  io.stdout.write(
    `The project's .mcp.json${status.changed ? ' changed and' : ''} names these servers:\n`,
  );
  for (const server of status.servers) {
    io.stdout.write(`  ${paint.bold(text.line(server.name))}: ${text.line(server.commandLine)}\n`);
    if (server.cwd !== null) io.stdout.write(`    in ${text.line(server.cwd)}\n`);
    if (server.environment.length > 0)
      io.stdout.write(`    environment: ${server.environment.map(text.line).join(' ')}\n`);
    if (server.headerNames.length > 0)
      io.stdout.write(`    headers: ${server.headerNames.map(text.line).join(', ')}\n`);
  }
  for (const problem of status.problems) io.stdout.write(`  note: ${text.line(problem)}\n`);
  // Rules given for another definition of a server's name go with this acceptance (said first).
  const permissions = new JsonFilePermissionsStore(dataDir);
  const servers = await projectServersRunning(store, file.servers);
  const stale = staleServerRules(servers, (await permissions.load(folder)).rules);
  for (const line of describeStaleRules(stale.stale)) {
    io.stdout.write(`  ${paint.yellow(text.line(line))}.\n`);
  }
  if (!yes) {
    if (!io.stdinIsTTY) {
      throw new CliFailure(
        'no terminal to ask on: pass --yes to accept what is shown above',
        EXIT.setup,
      );
    }
    io.stdout.write(
      'Start these servers in this project (inside the sandbox where there is one)? Type "yes": ',
    );
    if ((await readLine(io.stdin)).trim() !== 'yes') {
      io.stdout.write('Not accepted.\n');
      return EXIT.stopped;
    }
  }
  // Saved for the content shown; a change after this asks again.
  await store.saveProject(folder, withAcceptedHash(settings, status.hash));
  const stored = await permissions.load(folder);
  const kept = stored.rules.filter(stale.keepRule);
  if (kept.length !== stored.rules.length)
    await permissions.save(folder, { ...stored, rules: kept });
  io.stdout.write('Accepted.\n');
  return EXIT.ok;
}

function readLine(stdin: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolveLine) => {
    let seen = '';
    const onData = (chunk: Buffer | string): void => {
      seen += chunk.toString();
      const end = seen.indexOf('\n');
      if (end >= 0) {
        stdin.off('data', onData);
        stdin.pause();
        resolveLine(seen.slice(0, end));
      }
    };
    stdin.on('data', onData);
    stdin.once('end', () => resolveLine(seen));
    stdin.resume();
  });
}
