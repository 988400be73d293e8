// The tool contract (DESIGN.md §3): a tool is a plain value with a JSON Schema and an `execute`.
// Built-in tools declare their schema with TypeBox so `execute` gets typed arguments; MCP tools
// arrive as plain JSON Schema and go through the same registry and validation.
import type { Static, TSchema } from '@sinclair/typebox';
import type { ChangeReport } from '../../shared/change-report';
import type {
  CommandVerdict,
  RunBasis,
  ToolEffect,
  ToolImage,
  ToolPreview,
} from '../../shared/tool-types';

export type { RunBasis };

/** Records what a file looked like before a tool changed it, so the change can be undone. */
export interface WriteJournal {
  /** Call before writing or deleting `absPath` (a real path inside the folder). */
  recordBefore(absPath: string, callId: string): Promise<void>;
  /** Call after the change, so a later revert can tell whether the file changed since. */
  recordAfter?(absPath: string, callId: string): Promise<void>;
  /**
   * Writes the file through the journal (write-ahead: the before-image and the planned content
   * are on disk before the rename). Preferred over recordBefore/recordAfter where present.
   */
  write?(absPath: string, callId: string, content: string): Promise<void>;
}

/** What a call touches, so one policy can judge every tool (DESIGN.md §5). */
export type ToolTarget =
  | { readonly kind: 'path'; readonly path: string; readonly access: 'read' | 'write' }
  | { readonly kind: 'command'; readonly command: string }
  | { readonly kind: 'url'; readonly url: string }
  | { readonly kind: 'none' };

/** Services a tool may use. Optional ones are absent where the host does not provide them. */
export interface ToolServices {
  readonly journal?: WriteJournal;
  /** fetch_url: loopback, link-local and private addresses are refused unless this is true. */
  readonly allowPrivateNetwork?: boolean;
  /** shell: whether the sandbox lets commands reach the network. */
  readonly allowShellNetwork?: boolean;
  /**
   * Real paths of Tandem's own data folders. No tool reads, lists or changes anything in them,
   * and a command's sandbox hides them, wherever they are (issue 11 item 5).
   */
  readonly dataFolders?: readonly string[];
}

/**
 * How the gate let a call run. A tool narrows what it does by it: the shell runs a command allowed
 * as read-only, or by a rule or grant, from the words that were judged, not from its text.
 */
export interface Permit {
  readonly basis: RunBasis;
  /** The verdict the decision rested on, for a command. */
  readonly command?: CommandVerdict;
}

export interface ToolContext {
  /** Real path of the project folder. */
  readonly folder: string;
  readonly sessionId: string;
  readonly callId: string;
  /** Aborted on stop or timeout; a tool must stop its work promptly when it fires. */
  readonly signal: AbortSignal;
  /** Streams raw output as it arrives (becomes `tool-output` events). */
  readonly onOutput: (chunk: string) => void;
  readonly services: ToolServices;
  /** How the gate let this call run; absent when a tool runs without a gate (tests, tools of tools). */
  readonly permit?: Permit;
}

/** What `execute` may return: plain text, or text flagged as a failure the model should see. */
export interface ToolReturn {
  readonly output: string;
  readonly isError?: boolean;
  /** What a command changed on disk, as data (the output carries the same as text). */
  readonly changes?: ChangeReport;
  /**
   * Set when the output may carry content from outside the machine (a command that ran with the
   * network on): says where it came from, e.g. "after running `curl …` with network on". The
   * session counts as tainted from then on, as after a fetch.
   */
  readonly outsideContent?: string;
  /** Images for the trace (the model gets `output`, which describes them). */
  readonly images?: readonly ToolImage[];
}

/**
 * Where an MCP tool comes from, for the policy: which server, whether the person trusts its
 * annotations, and whether it runs inside the sandbox.
 */
export interface McpOrigin {
  readonly server: string;
  /** The server's own name for the tool. */
  readonly tool: string;
  readonly trusted: boolean;
  readonly sandboxed: boolean;
  /** The annotations as words for reasons ("read-only, closed world"). */
  readonly annotations: string;
  /** The server marks the tool destructive (only ever raises the bar). */
  readonly destructive: boolean;
  /** Hash of the server's definition (command, args, env, cwd / url, headers): rules bind to it. */
  readonly definition: string;
}

export interface Tool<S extends TSchema = TSchema> {
  readonly name: string;
  /** Written for the model: what it does, when to use it, its limits. */
  readonly description: string;
  readonly parameters: S;
  readonly effect: ToolEffect;
  /** Per-call time limit; the registry's default applies when absent. */
  readonly timeoutMs?: number;
  /**
   * Which argument the person may edit on the card before allowing the call: a command's text
   * (`command`) or a write's content (`content`). Absent: the call is allowed or denied as asked.
   */
  readonly editable?: 'command' | 'content';
  /** Set for a tool an MCP server provides. */
  readonly mcp?: McpOrigin;
  /** What the call touches, for the policy. Absent means `{ kind: 'none' }`. */
  target?(args: Static<S>, ctx: ToolContext): ToolTarget;
  /** What the person must see before approving: the diff, the command, the URL. */
  preview?(args: Static<S>, ctx: ToolContext): Promise<ToolPreview>;
  execute(args: Static<S>, ctx: ToolContext): Promise<string | ToolReturn>;
}

export type AnyTool = Tool<TSchema>;

/** Identity with inference: `defineTool({ parameters: Type.Object(...), execute(args) {...} })`. */
export function defineTool<S extends TSchema>(tool: Tool<S>): AnyTool {
  return tool as unknown as AnyTool;
}

/**
 * An expected failure with a message written for the model ("old_text occurs 3 times; give
 * more context"). The registry turns it into an error result without a stack trace.
 */
export class ToolError extends Error {
  override readonly name = 'ToolError';
}
