// The seam between the runner and the permission engine: validate → decide → run or refuse.
// Approval is a policy step, never code inside a tool (DESIGN.md §3, §5).
import type { RunEvent } from '../../shared/events';
import type { AnyTool, Permit, ToolContext } from '../tools/tool';

export interface GateRequest {
  readonly runId: string;
  readonly callId: string;
  readonly tool: AnyTool;
  /** Validated arguments: exactly what will run if the verdict is `run`. */
  readonly args: unknown;
  readonly ctx: ToolContext;
  /** Set once the current turn has taken in network or MCP content (raises the bar). */
  readonly taintedBy?: string | undefined;
  /**
   * Resolves when the calls before this one in its turn have finished. A gate may show its card
   * before (so one turn's cards wait together), but judges what runs on the state after it.
   */
  readonly ready?: Promise<void>;
  /**
   * Checks arguments the person edited against the tool's schema (the registry's validation) and
   * returns them as the tool will get them; absent where calls cannot be edited.
   */
  readonly revalidate?: (args: unknown) => RevalidatedArgs;
  /** Set when `args` are the person's edit of a card: the reasons that card showed. */
  readonly editOf?: {
    readonly reasons: readonly string[];
    readonly answeredAt: number;
    /** For a command: the project files the edit names, as they were when it was answered. */
    readonly namedFiles?: Readonly<Record<string, string>>;
  };
}

export type RevalidatedArgs =
  { readonly ok: true; readonly args: unknown } | { readonly ok: false; readonly message: string };

export type GateVerdict =
  | {
      readonly kind: 'run';
      readonly provenance: string;
      readonly permit: Permit;
      /** The person's edit of the call: run these arguments, not the model's. */
      readonly args?: unknown;
    }
  /** Not run; `message` is the tool result the model receives. */
  | { readonly kind: 'refuse'; readonly message: string };

/**
 * Decides, asking the person when needed (emitting approval events through `emit`).
 * Resolves `refuse` when `signal` aborts while waiting: stop means deny.
 */
export type PermissionGate = (
  request: GateRequest,
  emit: (event: RunEvent) => void,
  signal: AbortSignal,
) => Promise<GateVerdict>;
