// Value types shared by main, the CLI and the window. Pure TypeScript: no node, electron or react.

/** What a tool does to the world. Reads flow freely; everything else goes through the permission gate. */
export type ToolEffect = 'read' | 'write' | 'exec' | 'network';

export const TOOL_EFFECTS: readonly ToolEffect[] = ['read', 'write', 'exec', 'network'];

/** The permission gate's verdict for one call. */
export type Decision = 'run' | 'ask' | 'refuse';

/** Per-project modes (DESIGN.md §5). */
export type PermissionMode = 'ask' | 'auto-edit' | 'read-only' | 'autonomous';

export const PERMISSION_MODES: readonly PermissionMode[] = [
  'ask',
  'auto-edit',
  'read-only',
  'autonomous',
];

/** One simple command out of a parsed shell command line, with why it needs approval (if it does). */
export interface CommandPart {
  readonly text: string;
  readonly argv: readonly string[];
  readonly safe: boolean;
  readonly reasons: readonly string[];
}

/** Whether shell commands run inside an OS sandbox, and which. */
export interface SandboxState {
  readonly kind: 'bwrap' | 'sandbox-exec' | 'none';
  readonly available: boolean;
  /** Person-readable, e.g. "bubblewrap: system read-only, private /tmp, home hidden, network off". */
  readonly description: string;
}

/** What the person must see before approving a call: exactly what will happen. */
export type ToolPreview =
  | {
      readonly kind: 'diff';
      readonly path: string;
      /** Unified diff (jsdiff) of the change, or the whole content for a new file. */
      readonly diff: string;
      readonly summary: string;
      readonly isNewFile: boolean;
    }
  | {
      readonly kind: 'command';
      readonly command: string;
      readonly cwd: string;
      readonly parts: readonly CommandPart[];
      readonly sandbox: SandboxState;
    }
  | { readonly kind: 'url'; readonly url: string; readonly method: string }
  | { readonly kind: 'text'; readonly text: string };

/** How a person answered an approval card. */
export type ApprovalAnswer =
  | { readonly kind: 'allow-once' }
  | { readonly kind: 'allow-session' }
  /**
   * Stores a rule per offered sub-command: its exact words, or, for each prefix in `widen`
   * (which main checks against the words the card showed), those words with any further words.
   */
  | { readonly kind: 'allow-always'; readonly widen?: readonly (readonly string[])[] }
  | { readonly kind: 'allow-for'; readonly minutes: number }
  | { readonly kind: 'deny' }
  | { readonly kind: 'deny-with-note'; readonly note: string };

export function isAllow(answer: ApprovalAnswer): boolean {
  switch (answer.kind) {
    case 'allow-once':
    case 'allow-session':
    case 'allow-always':
    case 'allow-for':
      return true;
    case 'deny':
    case 'deny-with-note':
      return false;
  }
}

/** Token counts as reported by the provider. */
export interface Usage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens: number;
}
