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
  /** Whether a rule or grant may speak for this part: only its program and words need a yes
   * (no path outside, no wildcard or redirection that could not be judged). */
  readonly coverable?: boolean;
}

/**
 * The classifier's one verdict on a command line. The policy reads it to decide (run, ask, which
 * rule may apply); the shell tool reads the same object to decide what text runs and how much of
 * the project its sandbox may write.
 */
export interface CommandVerdict {
  /** The command line as the model gave it. */
  readonly command: string;
  /** False when the parser found an error in the command; such a command is never safe. */
  readonly parsed: boolean;
  /** True only when the command runs without asking: it fits the grammar and every part is a
   * known read-only program, used with safe options, on paths inside the folder. */
  readonly safe: boolean;
  /** One per simple command, with its argv (wildcards expanded), reasons, and whether a rule may cover it. */
  readonly parts: readonly CommandPart[];
  /** Every reason, person-readable: "writes to a file: > out.txt". */
  readonly reasons: readonly string[];
  /** Reasons about the whole command line (its characters, its shell structure): with any of
   * them no rule or grant applies, only the person's yes. */
  readonly structural: readonly string[];
  /** The command line Tandem runs in place of the text when it runs the command as judged:
   * every word single-quoted. Present when the command fits the grammar and every wildcard
   * could be expanded. */
  readonly canonical?: string;
}

/**
 * How the permission gate let a call run: the classifier judged it read-only, a rule or a grant of
 * the person's covered it, the person answered its card, or the mode (auto-accept edits,
 * autonomous) runs it. The shell narrows what it does by it.
 */
export type RunBasis = 'read-only' | 'rule' | 'grant' | 'person' | 'mode';

/** Whether shell commands run inside an OS sandbox, and which. */
/** A secret found in a tool's output and masked for the model (the kind, and its length). */
export interface SecretMark {
  /** What it looked like: "AWS access key", "value of DATABASE_PASSWORD". */
  readonly kind: string;
  readonly chars: number;
}

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

/**
 * What the person may change on a card before allowing it: a command's text, or the content of a
 * file write. Everything else about the call stays as the model asked.
 */
export type EditedArgs =
  | { readonly kind: 'command'; readonly command: string }
  | { readonly kind: 'content'; readonly content: string };

/** Longest edited command or file content the window may send. */
export const EDITED_TEXT_MAX = 1_000_000;

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

/** Image types the trace draws (never SVG: it can carry script). */
export const SHOWN_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

export type ShownImageType = (typeof SHOWN_IMAGE_TYPES)[number];

/** Largest image (decoded) the trace shows; larger ones are described only. */
export const MAX_SHOWN_IMAGE_BYTES = 512 * 1024;
/** Most images one result shows in the trace. */
export const MAX_SHOWN_IMAGES = 4;
/** Base64 as an image's data must be written (checked in main, on reload and in the window). */
export const SHOWN_IMAGE_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** An image a tool returned (an MCP tool's image content), for the trace to show. */
export interface ToolImage {
  readonly mimeType: ShownImageType;
  /** Base64, checked to be base64 and bounded in size by main. */
  readonly data: string;
}

/** Token counts of one request as reported by the provider. */
export interface Usage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens: number;
  /** Prompt tokens the provider served from its cache, where it says. */
  readonly cachedTokens?: number;
}

/** A session's requests summed (the summary requests of compaction included). */
export interface UsageTotals {
  readonly requests: number;
  readonly promptTokens: number;
  readonly cachedTokens: number;
  readonly completionTokens: number;
  /** US dollars, when a price is set for the model. */
  readonly costUsd?: number;
}
