// MCP servers as the window, the CLI and main all see them. Pure TypeScript (DESIGN.md §2).
import type { ToolEffect } from './tool-types';

/**
 * Server names become part of tool names (`mcp__<server>__<tool>`, at most 64 characters for the
 * model's API) and of per-server rules, so they are plain: letters, digits, `-` and single `_`.
 */
export const SERVER_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]|_(?!_))*$/;
export const SERVER_NAME_MAX = 32;

/** Where a server's configuration came from. */
export type McpServerSource = 'app' | 'project' | 'cli';

/** How the person chose to let one server run (never read from a project's own file). */
export interface McpServerChoices {
  /** Honour the server's read-only annotations: its read tools then run without asking. */
  readonly trusted: boolean;
  /** What a sandboxed stdio server may do to the project folder. */
  readonly projectAccess: 'read-only' | 'read-write';
  /** Whether a sandboxed stdio server may reach the network. */
  readonly network: boolean;
}

export const DEFAULT_MCP_CHOICES: McpServerChoices = {
  trusted: false,
  projectAccess: 'read-only',
  network: false,
};

/** One server's life: starting, ready, or failed with the reason; stopped after close. */
export type McpServerStatus =
  | { readonly state: 'starting'; readonly attempt: number }
  | { readonly state: 'ready' }
  | {
      readonly state: 'failed';
      readonly reason: string;
      /** When the next automatic restart happens (ms since epoch); null when none will. */
      readonly retryAt: number | null;
    }
  | { readonly state: 'stopped' };

/** A tool a server offers, as the registry knows it. */
export interface McpToolInfo {
  /** The registry name: `mcp__<server>__<tool>`. */
  readonly name: string;
  /** The server's own name for it. */
  readonly tool: string;
  readonly title: string;
  /** What the policy treats it as: from its annotations, raised for an untrusted server. */
  readonly effect: ToolEffect;
  /** The annotations' words, e.g. "read-only, closed world". */
  readonly annotations: string;
}

/** How a stdio server is confined, for the window; `sandboxed` false says plainly it is not. */
export interface McpSandboxInfo {
  readonly sandboxed: boolean;
  readonly description: string;
}

export interface McpServerInfo {
  readonly name: string;
  readonly source: McpServerSource;
  readonly transport: 'stdio' | 'http' | 'sse';
  /** The exact command line (stdio) or URL (http), as it runs. */
  readonly commandLine: string;
  /** Names of the variables and headers it is given; their values never reach the window. */
  readonly envNames: readonly string[];
  readonly headerNames: readonly string[];
  readonly choices: McpServerChoices;
  readonly status: McpServerStatus;
  readonly sandbox: McpSandboxInfo;
  readonly tools: readonly McpToolInfo[];
  /** Tools left out (a schema that does not compile, a name clash), with the reason. */
  readonly problems: readonly string[];
  /** The tail of its stderr, bounded. */
  readonly stderrTail: string;
}

/** One server of a project's `.mcp.json`, as the acceptance dialog shows it. */
export interface McpProposedServer {
  readonly name: string;
  readonly transport: 'stdio' | 'http' | 'sse';
  readonly commandLine: string;
  readonly cwd: string | null;
  /**
   * What it is given: for a project's file `NAME=value` (the value shell-quoted), since a value can
   * decide which program starts (PATH) or what it loads (NODE_OPTIONS, LD_PRELOAD); for servers
   * the person pastes, the names only (their values are the person's tokens).
   */
  readonly environment: readonly string[];
  readonly headerNames: readonly string[];
}

/** The project's `.mcp.json` and whether the person accepted this exact content. */
export type ProjectMcpStatus =
  | { readonly kind: 'none' }
  | { readonly kind: 'invalid'; readonly reason: string }
  | {
      readonly kind: 'pending' | 'accepted';
      /** sha256 of the file's content; accepting names it, so a changed file asks again. */
      readonly hash: string;
      /** True when an earlier, different content was accepted. */
      readonly changed: boolean;
      readonly servers: readonly McpProposedServer[];
      readonly problems: readonly string[];
    };

export interface McpOverview {
  readonly servers: readonly McpServerInfo[];
  readonly project: ProjectMcpStatus;
  /** Problems of the app's own list (a name used twice, a bad entry). */
  readonly problems: readonly string[];
}
