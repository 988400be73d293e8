// The registry dispatches by name so the loop never changes when tools are added (built-ins now,
// MCP tools later). Every failure becomes a result the model can act on, never an exception.
import type { ValidateFunction } from 'ajv';
import type { ChangeReport } from '../../shared/change-report';
import { nestsDeeperThan } from '../../shared/safe-json';
import { coerceArgs } from './arg-coercion';
import {
  checkArgumentText,
  describeBoundsProblem,
  MAX_ARGUMENT_DEPTH,
  refusedArgumentsPreview,
} from './argument-bounds';
import type { JsonSchema } from './json-schema';
import { isPlainObject } from './json-schema';
import { boundOutput, DEFAULT_MAX_OUTPUT_CHARS } from './output-bounds';
import { describeSchemaErrors } from './schema-errors';
import { ToolError, type AnyTool, type ToolContext } from './tool';
import { runWithTimeout } from './tool-timeout';
import type { SchemaCompiler } from './schema-compiler';
import type { ToolImage } from '../../shared/tool-types';
import { durationText } from '../../shared/duration-text';

const DEFAULT_TOOL_TIMEOUT_MS = 120_000;
/** OpenAI refuses a request with more tools than this; MCP servers' tools are fitted within it. */
export const MAX_REQUEST_TOOLS = 128;
export const CANCELLED_MESSAGE = 'cancelled by the user';

/** The OpenAI `tools` entry for one tool. */
export interface ToolDefinition {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: Record<string, unknown>;
  };
}

export type PreparedCall =
  | { readonly ok: true; readonly tool: AnyTool; readonly args: unknown }
  /** `args` is what we could make of the arguments (parsed JSON, or the raw string). */
  | {
      readonly ok: false;
      readonly tool?: AnyTool;
      readonly args: unknown;
      readonly message: string;
    };

export interface ToolRunResult {
  readonly ok: boolean;
  /** Bounded text the model receives. */
  readonly output: string;
  readonly outcome: 'ok' | 'error' | 'threw' | 'timeout' | 'cancelled';
  /** What a command changed on disk (from the command journal). */
  readonly changes?: ChangeReport;
  /** The tool's word that the output may carry outside content (see ToolReturn). */
  readonly outsideContent?: string;
  readonly images?: readonly ToolImage[];
}

export interface ToolRegistryOptions {
  readonly defaultTimeoutMs?: number;
  readonly maxOutputChars?: number;
}

export interface ToolRegistry {
  list(): readonly AnyTool[];
  get(name: string): AnyTool | undefined;
  /** Adds or replaces a tool (MCP servers come and go). */
  add(tool: AnyTool): void;
  remove(name: string): boolean;
  definitions(): ToolDefinition[];
  /**
   * Compiles a tool's parameter schema with the registry's validator: null when it compiles,
   * else why not (an MCP server's schema is checked before its tool is added). Needs
   * loadArgumentValidator() to have resolved, as prepare does.
   */
  schemaProblem(tool: AnyTool): string | null;
  /**
   * Looks up, parses, coerces and validates; never throws once loadArgumentValidator() has
   * resolved (before, it throws: a programming error, not the model's).
   */
  prepare(name: string, rawArguments: string): PreparedCall;
  /** Runs validated args under the tool's time limit and `ctx.signal`; never throws. */
  execute(tool: AnyTool, args: unknown, ctx: ToolContext): Promise<ToolRunResult>;
}

// ajv is loaded on first use, not with the registry (schema-compiler.ts): a session's first model
// request carries the tools' schemas but validates nothing. Whoever prepares calls awaits this
// first (the tool-call loop, the MCP tool list, the warm-up after the first request).
let compilerModule: typeof import('./schema-compiler') | undefined;
let compilerLoading: Promise<void> | undefined;

/** Loads the argument validator (ajv); prepare and schemaProblem need it to have resolved. */
export function loadArgumentValidator(): Promise<void> {
  compilerLoading ??= import('./schema-compiler').then((loaded) => {
    compilerModule = loaded;
  });
  return compilerLoading;
}

/** The loaded compiler module; a call before loadArgumentValidator resolved is a programming error. */
function loadedCompilerModule(): typeof import('./schema-compiler') {
  if (!compilerModule) {
    throw new Error(
      'the tool argument validator is not loaded: await loadArgumentValidator() first',
    );
  }
  return compilerModule;
}

export function createToolRegistry(
  tools: readonly AnyTool[] = [],
  options: ToolRegistryOptions = {},
): ToolRegistry {
  const defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  const maxOutputChars = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  let compiler: SchemaCompiler | undefined;
  const compile = (schema: Record<string, unknown>, outside: boolean): ValidateFunction =>
    (compiler ??= loadedCompilerModule().createSchemaCompiler()).compile(schema, outside);
  const byName = new Map<string, AnyTool>();
  // The plain schema is computed once per tool: definitions() is sent on every model turn.
  const schemas = new Map<string, Record<string, unknown>>();
  const validators = new Map<string, ValidateFunction>();

  const add = (tool: AnyTool): void => {
    byName.set(tool.name, tool);
    schemas.set(tool.name, plainSchema(tool.parameters));
    validators.delete(tool.name);
  };
  const schemaOf = (tool: AnyTool): Record<string, unknown> => schemas.get(tool.name) ?? {};
  tools.forEach(add);

  const validatorFor = (tool: AnyTool): ValidateFunction => {
    let validate = validators.get(tool.name);
    if (!validate) {
      validate = compile(schemaOf(tool), tool.mcp !== undefined);
      validators.set(tool.name, validate);
    }
    return validate;
  };

  const toolList = (): string => [...byName.keys()].sort().join(', ') || '(none)';

  return {
    list: () => [...byName.values()],
    get: (name) => byName.get(name),
    add,
    remove: (name) => {
      schemas.delete(name);
      validators.delete(name);
      return byName.delete(name);
    },
    schemaProblem(tool) {
      loadedCompilerModule();
      try {
        compile(plainSchema(tool.parameters), true);
        return null;
      } catch (error) {
        return messageOf(error);
      }
    },
    definitions: () =>
      [...byName.values()].map((tool) => ({
        type: 'function' as const,
        function: {
          name: tool.name,
          description: tool.description,
          parameters: schemaOf(tool),
        },
      })),

    prepare(name, rawArguments) {
      loadedCompilerModule();
      const tool = byName.get(name);
      // Checked on the text, before it is parsed, shown, recorded or hashed anywhere.
      const problem = checkArgumentText(rawArguments);
      if (problem) {
        return {
          ok: false,
          ...(tool ? { tool } : {}),
          args: refusedArgumentsPreview(rawArguments),
          message: describeBoundsProblem(tool ? name : `"${shortName(name)}"`, problem),
        };
      }
      const parsed = parseArguments(rawArguments);
      const shownArgs = parsed.ok ? parsed.value : rawArguments;
      if (!tool) {
        return {
          ok: false,
          args: shownArgs,
          message: `Error: there is no tool named "${shortName(name)}". Available tools: ${toolList()}.`,
        };
      }
      if (!parsed.ok) {
        return {
          ok: false,
          tool,
          args: shownArgs,
          message:
            `Error: the arguments for ${name} are not valid JSON (${parsed.reason}). ` +
            `Send one JSON object, e.g. {"field": "value"}. Received: ${preview(rawArguments)}`,
        };
      }
      if (!isPlainObject(parsed.value)) {
        return {
          ok: false,
          tool,
          args: shownArgs,
          message: `Error: the arguments for ${name} must be a JSON object, got ${kindOf(parsed.value)}.`,
        };
      }
      let validate: ValidateFunction;
      try {
        validate = validatorFor(tool);
      } catch (error) {
        return {
          ok: false,
          tool,
          args: shownArgs,
          message: `Error: the tool ${name} has an unusable parameter schema (${messageOf(error)}).`,
        };
      }
      const args = coerceArgs(tool.parameters as JsonSchema, parsed.value);
      // Coercion parses strings that should have been arrays or objects: check the result too.
      if (nestsDeeperThan(args, MAX_ARGUMENT_DEPTH)) {
        return {
          ok: false,
          tool,
          args: refusedArgumentsPreview(rawArguments),
          message: describeBoundsProblem(name, { kind: 'depth', limit: MAX_ARGUMENT_DEPTH }),
        };
      }
      if (!validate(args)) {
        const problems = describeSchemaErrors(validate.errors ?? [], args);
        return {
          ok: false,
          tool,
          args,
          message:
            `Error: invalid arguments for ${name}:\n` +
            problems.map((line) => `- ${line}`).join('\n') +
            `\nFix these and call ${name} again.`,
        };
      }
      return { ok: true, tool, args };
    },

    async execute(tool, args, ctx) {
      const timeoutMs = tool.timeoutMs ?? defaultTimeoutMs;
      const outcome = await runWithTimeout(
        (signal) => tool.execute(args as never, { ...ctx, signal }),
        timeoutMs,
        ctx.signal,
      );
      switch (outcome.kind) {
        case 'done': {
          const value = outcome.value;
          const text = typeof value === 'string' ? value : value.output;
          const isError = typeof value !== 'string' && value.isError === true;
          const changes = typeof value === 'string' ? undefined : value.changes;
          const outside = typeof value === 'string' ? undefined : value.outsideContent;
          const images = typeof value === 'string' ? undefined : value.images;
          return {
            ok: !isError,
            output: boundOutput(text, maxOutputChars),
            outcome: isError ? 'error' : 'ok',
            ...(changes ? { changes } : {}),
            ...(outside !== undefined ? { outsideContent: outside } : {}),
            ...(images && images.length > 0 ? { images } : {}),
          };
        }
        case 'threw':
          return {
            ok: false,
            outcome: 'threw',
            output: boundOutput(
              outcome.error instanceof ToolError
                ? `Error: ${outcome.error.message}`
                : `Error: ${tool.name} failed: ${messageOf(outcome.error)}`,
              maxOutputChars,
            ),
          };
        case 'timeout':
          return {
            ok: false,
            outcome: 'timeout',
            output:
              `Error: ${tool.name} timed out after ${durationText(timeoutMs)} and was stopped. ` +
              `Try a smaller piece of work.`,
          };
        case 'cancelled':
          return { ok: false, outcome: 'cancelled', output: CANCELLED_MESSAGE };
      }
    },
  };
}

/** TypeBox schemas carry symbol keys; a JSON round trip leaves plain JSON Schema. */
function plainSchema(schema: unknown): Record<string, unknown> {
  const plain: unknown = JSON.parse(JSON.stringify(schema ?? {}));
  return isPlainObject(plain) ? plain : {};
}

type Parsed = { ok: true; value: unknown } | { ok: false; reason: string };

function parseArguments(raw: string): Parsed {
  // Some models send "" for a call without arguments; that means {}.
  if (raw.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch (error) {
    return { ok: false, reason: messageOf(error) };
  }
}

/** A model-sent name inside a message: bounded, so a megabyte "name" stays a short line. */
function shortName(name: string): string {
  return name.length > 100 ? `${name.slice(0, 100)}…` : name;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function preview(raw: string): string {
  return raw.length > 200 ? `${raw.slice(0, 200)}…` : raw;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
