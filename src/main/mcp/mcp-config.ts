// The familiar `mcpServers` shape (Claude Code, Cursor, Gemini CLI): stdio servers with command,
// args, env and cwd; remote ones with url and headers. Parsed per entry, so one bad entry is
// reported and the others still load. Keys other tools honour (autoApprove, alwaysAllow, trust)
// are ignored on purpose: a file never decides what runs without asking here.
import { createHash } from 'node:crypto';
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { lazyValue } from '../../shared/lazy-value';
import { SERVER_NAME, SERVER_NAME_MAX, type McpProposedServer } from '../../shared/mcp-types';
import { quoteWord } from '../permissions/shown-words';

export type McpServerSpec =
  | {
      readonly kind: 'stdio';
      readonly command: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string>>;
      /** As written; relative to the project folder when not absolute; null for the folder. */
      readonly cwd: string | null;
    }
  | {
      readonly kind: 'http' | 'sse';
      readonly url: string;
      readonly headers: Readonly<Record<string, string>>;
    };

export interface NamedServerSpec {
  readonly name: string;
  readonly spec: McpServerSpec;
}

export interface ParsedMcpConfig {
  readonly servers: readonly NamedServerSpec[];
  /** Entries left out, and keys ignored, in words. */
  readonly problems: readonly string[];
}

const noNul = (s: string): boolean => !s.includes('\0');
/** Built on first use (lazy-value.ts): only when a config names a server. */
const schemas = lazyValue(() => {
  const word = z.string().max(8192).refine(noNul, 'must not contain NUL bytes');
  const envName = z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name: letters, digits and _');
  const headerName = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'a header name');
  const headerValue = z
    .string()
    .max(8192)
    .refine((s) => !/[\r\n\0]/.test(s), 'a header value must be one line');

  const entrySchema = z.object({
    type: z.enum(['stdio', 'http', 'streamable-http', 'streamableHttp', 'sse']).optional(),
    command: z.string().min(1).max(4096).refine(noNul, 'must not contain NUL bytes').optional(),
    args: z.array(word).max(512).optional(),
    env: z.record(envName, word).optional(),
    cwd: z.string().min(1).max(4096).refine(noNul, 'must not contain NUL bytes').optional(),
    url: z
      .string()
      .max(4096)
      .refine((s) => {
        try {
          const url = new URL(s);
          return url.protocol === 'http:' || url.protocol === 'https:';
        } catch {
          return false;
        }
      }, 'must be an http:// or https:// URL')
      .optional(),
    headers: z.record(headerName, headerValue).optional(),
  });
  return { entrySchema };
});

const KNOWN_KEYS = new Set(['type', 'command', 'args', 'env', 'cwd', 'url', 'headers']);

/** Parses a file's text; a text that is not JSON, or has no `mcpServers` object, is one error. */
export function parseMcpConfigText(
  text: string,
  source: string,
): ParsedMcpConfig | { error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { error: `${source} is not valid JSON (${(error as Error).message})` };
  }
  return parseMcpConfig(raw, source);
}

/** `{ "mcpServers": { name: entry } }`, or the inner object alone (as pasted into Settings). */
export function parseMcpConfig(raw: unknown, source: string): ParsedMcpConfig | { error: string } {
  if (!isObject(raw)) return { error: `${source} must be a JSON object with "mcpServers"` };
  const map = 'mcpServers' in raw ? raw.mcpServers : raw;
  if (!isObject(map)) return { error: `${source}: "mcpServers" must be an object of servers` };
  const servers: NamedServerSpec[] = [];
  const problems: string[] = [];
  for (const [name, entry] of Object.entries(map)) {
    const parsed = parseEntry(name, entry);
    if ('problem' in parsed) problems.push(`${name}: ${parsed.problem}`);
    else {
      servers.push({ name, spec: parsed.spec });
      if (parsed.ignored.length > 0) {
        problems.push(`${name}: ignored ${parsed.ignored.map((k) => `"${k}"`).join(', ')}`);
      }
    }
  }
  return { servers, problems };
}

type EntryResult = { spec: McpServerSpec; ignored: string[] } | { problem: string };

function parseEntry(name: string, entry: unknown): EntryResult {
  const nameProblem = serverNameProblem(name);
  if (nameProblem) return { problem: nameProblem };
  const parsed = schemas().entrySchema.safeParse(entry);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    return { problem: `${where}${issue?.message ?? 'not a server entry'}` };
  }
  const value = parsed.data;
  const ignored = isObject(entry) ? Object.keys(entry).filter((k) => !KNOWN_KEYS.has(k)) : [];
  if (value.command !== undefined && value.url !== undefined) {
    return { problem: 'has both "command" and "url"; give one' };
  }
  if (value.command !== undefined) {
    if (value.type !== undefined && value.type !== 'stdio') {
      return { problem: `"type": "${value.type}" needs a "url", not a "command"` };
    }
    return {
      spec: {
        kind: 'stdio',
        command: value.command,
        args: value.args ?? [],
        env: value.env ?? {},
        cwd: value.cwd ?? null,
      },
      ignored,
    };
  }
  if (value.url !== undefined) {
    if (value.type === 'stdio') return { problem: '"type": "stdio" needs a "command"' };
    return {
      spec: {
        kind: value.type === 'sse' ? 'sse' : 'http',
        url: value.url,
        headers: value.headers ?? {},
      },
      ignored,
    };
  }
  return { problem: 'needs a "command" (a local server) or a "url" (a remote one)' };
}

export function serverNameProblem(name: string): string | null {
  if (name.length === 0) return 'the server name is empty';
  if (name.length > SERVER_NAME_MAX) return `the name is longer than ${SERVER_NAME_MAX} characters`;
  if (!SERVER_NAME.test(name) || name.endsWith('_')) {
    return 'the name may use letters, digits, "-" and single "_" (it becomes part of tool names)';
  }
  return null;
}

/** The working folder a stdio server starts in. */
export function serverCwd(spec: Extract<McpServerSpec, { kind: 'stdio' }>, folder: string): string {
  if (spec.cwd === null) return folder;
  return isAbsolute(spec.cwd) ? spec.cwd : resolve(folder, spec.cwd);
}

/** The exact command line, each word quoted as a shell would read it back; or the URL. */
export function commandLineOf(spec: McpServerSpec): string {
  return spec.kind === 'stdio' ? [spec.command, ...spec.args].map(quoteWord).join(' ') : spec.url;
}

/**
 * How a server is shown before it may start. `values` 'shown' for a project's file: its values
 * (already in the repository) can decide which program runs. 'names' for servers the person
 * pasted: their values are often the person's tokens, and the person wrote them.
 */
export function proposedServer(
  server: NamedServerSpec,
  values: 'shown' | 'names' = 'names',
): McpProposedServer {
  const { spec } = server;
  return {
    name: server.name,
    transport: spec.kind,
    commandLine: commandLineOf(spec),
    cwd: spec.kind === 'stdio' ? spec.cwd : null,
    environment:
      spec.kind === 'stdio'
        ? Object.keys(spec.env)
            .sort()
            .map((name) =>
              values === 'shown' ? `${name}=${quoteWord(spec.env[name] ?? '')}` : name,
            )
        : [],
    headerNames: spec.kind === 'stdio' ? [] : Object.keys(spec.headers).sort(),
  };
}

/**
 * The hash of everything that decides what a server is: its transport and command, args, env
 * and cwd, or its url and headers. Rules and grants for a server are bound to it.
 */
export function serverDefinition(spec: McpServerSpec): string {
  const sorted = (record: Readonly<Record<string, string>>): [string, string][] =>
    Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const canonical =
    spec.kind === 'stdio'
      ? [spec.kind, spec.command, spec.args, sorted(spec.env), spec.cwd]
      : [spec.kind, spec.url, sorted(spec.headers)];
  return contentHash(JSON.stringify(canonical));
}

export function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
