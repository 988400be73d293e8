// One MCP tool as a registry tool: `mcp__<server>__<tool>`, its JSON Schema as parameters, an
// effect from its annotations, and an `execute` that calls the server (with progress shown as
// output and the run's signal cancelling the request). Protocol errors become results.
import { createHash } from 'node:crypto';
import type { TSchema } from '@sinclair/typebox';
import type {
  CallToolResult,
  Progress,
  Tool as McpToolDefinition,
  ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ToolEffect } from '../../shared/tool-types';
import type { AnyTool, ToolReturn } from '../tools/tool';
import { toolReturnOf } from './mcp-result';

export const MCP_TOOL_PREFIX = 'mcp__';
/** The model APIs accept function names of at most 64 characters from [A-Za-z0-9_-]. */
export const MAX_TOOL_NAME = 64;
const MAX_DESCRIPTION = 4000;

export interface McpCallOptions {
  readonly signal: AbortSignal;
  readonly onProgress: (progress: Progress) => void;
}

/** What a tool needs from its server's connection. */
export interface McpCaller {
  call(
    tool: string,
    args: Record<string, unknown>,
    options: McpCallOptions,
  ): Promise<CallToolResult>;
}

export interface McpToolServer {
  readonly name: string;
  readonly trusted: boolean;
  readonly sandboxed: boolean;
  /** Hash of its definition (see serverDefinition). */
  readonly definition: string;
  /** For the approval card: the command line or URL, and how it is confined. */
  readonly commandLine: string;
  readonly sandboxDescription: string;
}

/** readOnlyHint → read; openWorldHint → network (it reaches outside); otherwise exec. */
export function annotatedEffect(annotations: ToolAnnotations | undefined): ToolEffect {
  if (annotations?.openWorldHint === true) return 'network';
  if (annotations?.readOnlyHint === true) return 'read';
  return 'exec';
}

export function describeAnnotations(annotations: ToolAnnotations | undefined): string {
  if (!annotations) return 'no annotations';
  const words: string[] = [];
  if (annotations.readOnlyHint !== undefined)
    words.push(annotations.readOnlyHint ? 'read-only' : 'not read-only');
  if (annotations.destructiveHint === true) words.push('destructive');
  if (annotations.idempotentHint === true) words.push('idempotent');
  if (annotations.openWorldHint !== undefined)
    words.push(annotations.openWorldHint ? 'open world' : 'closed world');
  return words.length > 0 ? words.join(', ') : 'no annotations';
}

/** `mcp__<server>__<tool>` in the characters and length the model APIs accept, unique in `taken`. */
export function registryName(server: string, tool: string, taken: ReadonlySet<string>): string {
  const base = `${MCP_TOOL_PREFIX}${server}__${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  if (base.length <= MAX_TOOL_NAME && !taken.has(base)) return base;
  const hash = createHash('sha256').update(tool).digest('hex').slice(0, 8);
  return `${base.slice(0, MAX_TOOL_NAME - hash.length - 1)}_${hash}`;
}

export function createMcpTool(
  name: string,
  definition: McpToolDefinition,
  server: McpToolServer,
  caller: McpCaller,
  timeoutMs?: number,
): AnyTool {
  const annotations = definition.annotations;
  const effect = annotatedEffect(annotations);
  const about = definition.description ?? definition.title ?? definition.name;
  const description = `[MCP server "${server.name}"] ${about}`.slice(0, MAX_DESCRIPTION);
  return {
    name,
    description,
    parameters: definition.inputSchema as unknown as TSchema,
    effect,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    mcp: {
      server: server.name,
      tool: definition.name,
      trusted: server.trusted,
      sandboxed: server.sandboxed,
      annotations: describeAnnotations(annotations),
      destructive: annotations?.destructiveHint === true,
      definition: server.definition,
    },
    async preview(args) {
      return {
        kind: 'text',
        text:
          `MCP tool "${definition.name}" of the server "${server.name}"\n` +
          `Server: ${server.commandLine}\n${server.sandboxDescription}\n` +
          `Annotations: ${describeAnnotations(annotations)}${server.trusted ? '' : ' (server not trusted)'}\n` +
          `Arguments:\n${JSON.stringify(args, null, 2)}`,
      };
    },
    async execute(args, ctx): Promise<ToolReturn> {
      try {
        const result = await caller.call(definition.name, args as Record<string, unknown>, {
          signal: ctx.signal,
          onProgress: (progress) => ctx.onOutput(progressLine(progress)),
        });
        return toolReturnOf(result, server.name);
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        return { output: protocolError(server.name, definition.name, error), isError: true };
      }
    },
  };
}

function progressLine(progress: Progress): string {
  const total = progress.total !== undefined ? `/${progress.total}` : '';
  const message = progress.message ? ` ${progress.message}` : '';
  return `progress ${progress.progress}${total}${message}\n`;
}

function protocolError(server: string, tool: string, error: unknown): string {
  if (error instanceof McpError) {
    return `Error: the MCP server "${server}" answered the call of "${tool}" with an error (code ${error.code}): ${error.message}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `Error: calling "${tool}" on the MCP server "${server}" failed: ${message}`;
}
