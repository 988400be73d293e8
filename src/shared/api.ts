// The contract between the window and main: `window.tandem`. The preload exposes exactly this;
// main implements it (src/main/ipc) and validates every payload (./ipc-schemas.ts).
import type { RunEvent } from './events';
import type { McpOverview, McpServerChoices } from './mcp-types';
import type { ModelSettings } from './model-settings';
import type { ProviderPresetId } from './provider-presets';
import type { ProviderTimeoutSettings } from './provider-timeouts';
import type { ApprovalAnswer, EditedArgs, PermissionMode, SandboxState } from './tool-types';

export interface AppInfo {
  readonly name: string;
  readonly version: string;
  readonly platform: string;
  readonly sandbox: SandboxState;
}

export interface WorkspaceInfo {
  /** The real path of the project folder. */
  readonly folder: string;
  readonly name: string;
  readonly mode: PermissionMode;
}

export interface ProviderStatus {
  readonly baseUrl: string;
  readonly model: string;
  /** Whether a key is stored. The key itself never reaches the window. */
  readonly hasApiKey: boolean;
  /** Whether the chosen provider refuses requests without a key (local servers do not). */
  readonly needsApiKey: boolean;
}

/** Provider settings the person edits. The key is set and cleared separately, never read back. */
export interface ProviderSettingsInput {
  readonly baseUrl: string;
  readonly model: string;
  readonly presetId: ProviderPresetId;
}

/** Where the API key lives: encrypted on disk, or (without OS encryption) in memory for this run. */
export interface KeyStorageInfo {
  readonly persistent: boolean;
  readonly note: string;
}

export interface SettingsInfo extends ProviderSettingsInput {
  /** A key is stored for this base URL's origin (scheme, host and port). */
  readonly hasApiKey: boolean;
  readonly needsApiKey: boolean;
  /** Host a stored key belongs to when it is another one: that key is not sent here. */
  readonly keyHeldFor: string | null;
  readonly keyStorage: KeyStorageInfo;
  /** How long Tandem waits for the provider (the defaults when none are stored). */
  readonly timeouts: ProviderTimeoutSettings;
  /** The chosen model's window and prices as the person set them (empty when unset). */
  readonly modelSettings: ModelSettings;
}

/** What asking for a compaction did. */
export interface CompactOutcome {
  readonly ok: boolean;
  /** For the person: what was summarised, or why nothing was. */
  readonly message: string;
}

export interface ConnectionTestResult {
  /** True only when the server answered and serves the chosen model (or none is chosen yet). */
  readonly ok: boolean;
  /** Set when the server answered but does not list the chosen model: not OK, but reachable. */
  readonly modelMissing?: boolean;
  readonly message: string;
  readonly models?: readonly string[];
}

/** Network tools: refused, asked for, or allowed (the last only counts in autonomous mode). */
export type NetworkSetting = 'off' | 'ask' | 'allow';

/** A persisted "always allow in this project" rule. */
export interface RuleInfo {
  /** Derived from the rule's content, so it stays valid while the list changes. */
  readonly id: string;
  readonly kind: 'command' | 'tool' | 'mcp-server';
  /** e.g. "`rm build` exactly", "`npm test *` (…)", "tool `write_file`", "every tool of the MCP server `db`". */
  readonly description: string;
  /** Why Tandem narrowed this rule (an older version stored it wider); null when it did not. */
  readonly note: string | null;
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
}

/** A grant given during work: for this session, or until a time. */
export interface GrantInfo {
  readonly id: string;
  readonly kind: 'session' | 'until';
  readonly description: string;
  readonly grantedAt: number;
  readonly expiresAt: number | null;
  readonly lastUsedAt: number | null;
}

export interface PermissionsInfo {
  readonly folder: string;
  readonly mode: PermissionMode;
  readonly network: NetworkSetting;
  readonly sandbox: SandboxState;
  readonly rules: readonly RuleInfo[];
  readonly grants: readonly GrantInfo[];
}

/** What undoing a call or a run did: the files restored or deleted, or why nothing was. */
export interface RevertOutcome {
  readonly ok: boolean;
  /** Person-readable, e.g. "restored notes.txt" or "out.txt changed since the command ran". */
  readonly message: string;
  readonly files: readonly { readonly path: string; readonly action: 'restored' | 'deleted' }[];
}

/** One rule "Always allow" may store for a sub-command: as shown, or widened to a prefix. */
export interface AlwaysRuleChoice {
  /** What the answer sends back as one `widen` entry to store this; null for the rule as offered. */
  readonly widen: readonly string[] | null;
  /** e.g. "`npm test -- --ci` exactly" or "`npm test *` (`npm test` with any further words …)". */
  readonly rule: string;
  /** Which commands it accepts, in a sentence. */
  readonly accepts: string;
  /** Earlier calls of this project it would have run without asking (0 when refused). */
  readonly matched: number;
  readonly examples: readonly string[];
  readonly summary: string;
  /** Why this widening cannot be stored; null when it can. */
  readonly refused: string | null;
}

/** The rule "Always allow" would store, and what it would have let run among earlier calls. */
export interface AlwaysRulePreview {
  /** e.g. "`npm test` exactly"; several when a command line has several parts. */
  readonly rules: readonly string[];
  readonly matched: number;
  readonly examples: readonly string[];
  /** "`npm test` exactly would have run 14 earlier calls without asking, e.g. …" */
  readonly summary: string;
  /**
   * Per entry of `rules`, in the same order: the rule as offered first (exact, `widen` null),
   * then each prefix it may be widened to, shortest first, refused ones with the reason.
   */
  readonly choices: readonly (readonly AlwaysRuleChoice[])[];
}

/** How a session's last run ended, as the sessions sidebar shows it. */
export type SessionStatus =
  | 'new'
  | 'running'
  | 'done'
  | 'stopped'
  | 'failed'
  | 'step-limit'
  /** A run started and never finished: the app quit or crashed during it. */
  | 'interrupted';

/** One session of the open folder, for the sidebar. */
export interface SessionSummary {
  readonly id: string;
  /** The person's name for it, else the first task's first line. */
  readonly title: string;
  readonly createdAt: number;
  /** When its transcript last changed. */
  readonly updatedAt: number;
  readonly status: SessionStatus;
  /** The session the window shows (and a next task continues). */
  readonly current: boolean;
}

/** A session's whole trace, as recorded, to show it again and continue it. */
export interface SessionTrace {
  readonly sessionId: string;
  readonly title: string;
  readonly events: readonly RunEvent[];
}

/** One file this session changed, with its combined diff against the session's start. */
export interface ChangedFile {
  /** Relative to the project folder. */
  readonly path: string;
  readonly change: 'added' | 'modified' | 'deleted';
  /** Unified diff from the session's start to now (empty for a binary or too-large file). */
  readonly diff: string;
  readonly added: number;
  readonly removed: number;
  /** Why the file cannot be reverted (changed outside Tandem since, not kept); null when it can. */
  readonly blocked: string | null;
}

/** Something main pushes to the window: run events, and workspace changes. */
export type AppEvent =
  | { readonly type: 'run-event'; readonly sessionId: string; readonly event: RunEvent }
  | { readonly type: 'workspace-changed'; readonly workspace: WorkspaceInfo | null }
  /** MCP servers changed state, tools or log: fetch `getMcpOverview` again (sent at most 4×/s). */
  | { readonly type: 'mcp-changed' };

export interface TandemApi {
  getAppInfo(): Promise<AppInfo>;
  /** Round-trip check used by tests and the status bar. */
  ping(message: string): Promise<string>;
  /** Shows the OS folder picker; null when the person cancelled. */
  chooseFolder(): Promise<WorkspaceInfo | null>;
  openFolder(folder: string): Promise<WorkspaceInfo>;
  recentFolders(): Promise<readonly string[]>;
  getProviderStatus(): Promise<ProviderStatus>;
  startRun(task: string): Promise<{ readonly runId: string; readonly sessionId: string }>;
  stopRun(runId: string): Promise<void>;
  /** Stops one running command; the run goes on. False when it is not running. */
  stopCall(callId: string): Promise<boolean>;
  /** Summarises the older part of the open session now (refused while a run is going). */
  compactSession(): Promise<CompactOutcome>;
  answerApproval(requestId: string, argsHash: string, answer: ApprovalAnswer): Promise<void>;
  /**
   * Allows a pending call once, as the person edited it on its card (a command's text, a write's
   * content). Main checks the edit against the tool, judges the edited call afresh and asks
   * again when it needs more than the card showed; what runs is exactly the edited version.
   */
  answerEdited(requestId: string, argsHash: string, edited: EditedArgs): Promise<void>;

  /** What "Always allow" would store for a pending request, previewed over earlier calls. */
  previewAlwaysRule(requestId: string): Promise<AlwaysRulePreview>;
  /** The person's keystrokes into one running command; false when it is not running. */
  sendTerminalInput(callId: string, data: string): Promise<boolean>;
  /** Undo one call's changes on disk (an edit, a write, or a command that changed files). */
  revertCall(callId: string): Promise<RevertOutcome>;
  /** Undo every change of one run, newest first. */
  revertRun(runId: string): Promise<RevertOutcome>;
  /** The files "Revert this run" would put back, to confirm before it does (relative paths). */
  previewRevertRun(runId: string): Promise<readonly string[]>;
  /** Sessions of the open folder, newest first. */
  listSessions(): Promise<readonly SessionSummary[]>;
  /** Shows a past session's whole trace; the next task continues it. */
  openSession(sessionId: string): Promise<SessionTrace>;
  /** The next task starts a new session. */
  newSession(): Promise<void>;
  renameSession(sessionId: string, title: string): Promise<readonly SessionSummary[]>;
  /** Deletes a session's transcript (not the current one while it runs). */
  deleteSession(sessionId: string): Promise<readonly SessionSummary[]>;
  /** Files this session changed, each with its diff against the session's start. */
  sessionChanges(): Promise<readonly ChangedFile[]>;
  /** Puts files back as they were when the session started (paths from sessionChanges). */
  revertFiles(paths: readonly string[]): Promise<RevertOutcome>;
  getSettings(): Promise<SettingsInfo>;
  setProviderSettings(settings: ProviderSettingsInput): Promise<SettingsInfo>;
  /** Stores the key (write-only: nothing ever returns it). */
  setApiKey(key: string): Promise<SettingsInfo>;
  clearApiKey(): Promise<SettingsInfo>;
  setProviderTimeouts(timeouts: ProviderTimeoutSettings): Promise<SettingsInfo>;
  /** A model's window and prices; an empty value removes them. */
  setModelSettings(model: string, settings: ModelSettings): Promise<SettingsInfo>;
  /** Models the stored provider offers. */
  listModels(): Promise<readonly string[]>;
  testConnection(): Promise<ConnectionTestResult>;
  /** Mode of the open project; autonomous is refused where commands cannot be sandboxed. */
  setMode(mode: PermissionMode): Promise<WorkspaceInfo>;
  /** Mode, network setting, rules and grants of the open project; null when none is open. */
  getPermissions(): Promise<PermissionsInfo | null>;
  setNetwork(setting: NetworkSetting): Promise<PermissionsInfo>;
  deleteRule(ruleId: string): Promise<PermissionsInfo>;
  revokeGrant(grantId: string): Promise<PermissionsInfo>;
  /** MCP servers of the app and the open project, their states, tools and logs. */
  getMcpOverview(): Promise<McpOverview>;
  /** Adds app servers from text in the `mcpServers` shape; main asks the person to confirm. */
  addMcpServers(json: string): Promise<McpOverview>;
  removeMcpServer(name: string): Promise<McpOverview>;
  /** Trust, project access and network of one server; a widening is confirmed by main. */
  setMcpServerChoices(
    source: 'app' | 'project',
    name: string,
    choices: McpServerChoices,
  ): Promise<McpOverview>;
  /** Accepts the project's `.mcp.json` whose content hashes to `hash` (confirmed by main). */
  acceptProjectMcp(hash: string): Promise<McpOverview>;
  /** Stops the project's servers; its `.mcp.json` asks again. */
  revokeProjectMcp(): Promise<McpOverview>;
  restartMcpServer(name: string): Promise<McpOverview>;
  /** Every tool of one server runs without asking: for this session, or as a project rule. */
  allowMcpServer(name: string, scope: 'session' | 'always'): Promise<McpOverview>;
  /** Subscribe to main's pushes; returns the unsubscribe function. */
  onEvent(listener: (event: AppEvent) => void): () => void;
}

/** The invoke-style methods (everything but the subscription), i.e. the IPC channels. */
export type TandemInvokeMethod = Exclude<keyof TandemApi, 'onEvent'>;

export const TANDEM_INVOKE_METHODS = [
  'getAppInfo',
  'ping',
  'chooseFolder',
  'openFolder',
  'recentFolders',
  'getProviderStatus',
  'startRun',
  'stopRun',
  'stopCall',
  'compactSession',
  'answerApproval',
  'answerEdited',
  'previewAlwaysRule',
  'sendTerminalInput',
  'revertCall',
  'revertRun',
  'previewRevertRun',
  'listSessions',
  'openSession',
  'newSession',
  'renameSession',
  'deleteSession',
  'sessionChanges',
  'revertFiles',
  'getSettings',
  'setProviderSettings',
  'setApiKey',
  'clearApiKey',
  'setProviderTimeouts',
  'setModelSettings',
  'listModels',
  'testConnection',
  'setMode',
  'getPermissions',
  'setNetwork',
  'deleteRule',
  'revokeGrant',
  'getMcpOverview',
  'addMcpServers',
  'removeMcpServer',
  'setMcpServerChoices',
  'acceptProjectMcp',
  'revokeProjectMcp',
  'restartMcpServer',
  'allowMcpServer',
] as const satisfies readonly TandemInvokeMethod[];

// Compile-time check that the list names every invoke method.
type Missing = Exclude<TandemInvokeMethod, (typeof TANDEM_INVOKE_METHODS)[number]>;
const everyMethodListed: Missing extends never ? true : Missing = true;
void everyMethodListed;

/** Longest session title the person may set. */
export const SESSION_TITLE_MAX = 200;

/** Most characters one `sendTerminalInput` call may carry (4 KB of keystrokes or a paste piece). */
export const TERMINAL_INPUT_MAX = 4096;

export const IPC_PREFIX = 'tandem:';
export const IPC_EVENT_CHANNEL = 'tandem:event';

export function channelFor(method: TandemInvokeMethod): string {
  return IPC_PREFIX + method;
}
