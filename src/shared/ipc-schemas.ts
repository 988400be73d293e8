// Schemas for every IPC payload. Main validates each call against these before anything runs:
// the window is untrusted input (DESIGN.md §1). zod is plain TypeScript, so it may live here.
import { z } from 'zod';
import { SESSION_TITLE_MAX, TERMINAL_INPUT_MAX, type TandemInvokeMethod } from './api';
import { hasControlCharacters, isSendableApiKey } from './control-characters';
import { lazyValue } from './lazy-value';
import { SERVER_NAME, SERVER_NAME_MAX } from './mcp-types';
import { PROVIDER_PRESET_IDS } from './provider-presets';
import { modelIdSchema, modelSettingsSchema } from './model-settings';
import { providerTimeoutsSchema } from './provider-timeouts';
import { EDITED_TEXT_MAX, PERMISSION_MODES, type PermissionMode } from './tool-types';

/** NUL-free text of at most `max` characters. */
const nulFree = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !s.includes('\0'), 'must not contain NUL bytes');

// Every schema here is built on first use (lazy-value.ts): the CLI never takes an IPC call, and a
// run reads an answer or an edit back only from a transcript.

export const approvalAnswerSchema = lazyValue(() => {
  /** One word of a command as the card showed it (a prefix for widening an "always" rule). */
  const ruleWord = nulFree(200_000);
  return z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('allow-once') }).strict(),
    z.object({ kind: z.literal('allow-session') }).strict(),
    z
      .object({
        kind: z.literal('allow-always'),
        // Prefixes of the card's command words; main checks each against the pending request.
        widen: z.array(z.array(ruleWord).min(1).max(64)).min(1).max(32).optional(),
      })
      .strict(),
    z
      .object({
        kind: z.literal('allow-for'),
        minutes: z
          .number()
          .int()
          .min(1)
          .max(24 * 60),
      })
      .strict(),
    z.object({ kind: z.literal('deny') }).strict(),
    z.object({ kind: z.literal('deny-with-note'), note: z.string().min(1).max(10_000) }).strict(),
  ]);
});

export const editedArgsSchema = lazyValue(() => {
  const editedText = nulFree(EDITED_TEXT_MAX);
  return z.discriminatedUnion('kind', [
    z
      .object({
        kind: z.literal('command'),
        // Not trimmed: what runs is exactly what the person typed.
        command: editedText.refine((s) => s.trim() !== '', 'the command is empty'),
      })
      .strict(),
    z.object({ kind: z.literal('content'), content: editedText }).strict(),
  ]);
});

/** An http(s) URL the person typed as a provider's base URL. */
export const baseUrlSchema = lazyValue(() =>
  z
    .string()
    .trim()
    .min(1, 'the base URL is empty')
    .max(2000)
    .refine((s) => {
      try {
        const url = new URL(s);
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '';
      } catch {
        return false;
      }
    }, 'the base URL must be an http:// or https:// URL, e.g. https://api.openai.com/v1'),
);

/** Argument tuples per method; built on first use (lazy-value.ts): the CLI never takes an IPC call. */
export const ipcArgSchemas = lazyValue(() => {
  const id = z.string().min(1).max(200);
  const path = z
    .string()
    .min(1)
    .max(4096)
    .refine((s) => !s.includes('\0'), 'must not contain NUL bytes');

  /** Session ids are made by main: a timestamp and a random part. */
  const sessionId = z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be a session id (letters, digits, - and _)');

  const sessionTitle = z
    .string()
    .trim()
    .min(1, 'the title is empty')
    .max(SESSION_TITLE_MAX)
    .refine((s) => !hasControlCharacters(s), 'the title must not contain control characters');

  /** A path the changes panel listed: relative, inside the project (main checks it again). */
  const relativePath = path.refine(
    (s) => !s.startsWith('/') && !s.split(/[\\/]/).includes('..'),
    'must be a path relative to the project folder',
  );

  const providerSettingsSchema = z
    .object({
      baseUrl: baseUrlSchema(),
      model: z
        .string()
        .trim()
        .max(300)
        .refine(
          (s) => !hasControlCharacters(s),
          'the model name must not contain control characters',
        ),
      presetId: z.enum(PROVIDER_PRESET_IDS),
    })
    .strict();

  const apiKeySchema = z
    .string()
    .trim()
    .min(1, 'the API key is empty')
    .max(4096)
    .refine(isSendableApiKey, 'the API key must not contain spaces or line breaks');

  const modeSchema = z.enum(PERMISSION_MODES as [PermissionMode, ...PermissionMode[]]);

  const mcpServerName = z
    .string()
    .min(1)
    .max(SERVER_NAME_MAX)
    .regex(SERVER_NAME, 'an MCP server name: letters, digits, "-" and single "_"');

  const mcpChoicesSchema = z
    .object({
      trusted: z.boolean(),
      projectAccess: z.enum(['read-only', 'read-write']),
      network: z.boolean(),
    })
    .strict();

  return {
    getAppInfo: z.tuple([]),
    ping: z.tuple([z.string().max(10_000)]),
    chooseFolder: z.tuple([]),
    openFolder: z.tuple([path]),
    recentFolders: z.tuple([]),
    getProviderStatus: z.tuple([]),
    startRun: z.tuple([z.string().min(1).max(200_000)]),
    stopRun: z.tuple([id]),
    stopCall: z.tuple([id]),
    compactSession: z.tuple([]),
    answerApproval: z.tuple([id, z.string().min(1).max(200), approvalAnswerSchema()]),
    answerEdited: z.tuple([id, z.string().min(1).max(200), editedArgsSchema()]),
    previewAlwaysRule: z.tuple([id]),
    // Keystrokes and pastes; a larger paste is split by the window.
    sendTerminalInput: z.tuple([id, z.string().min(1).max(TERMINAL_INPUT_MAX)]),
    revertCall: z.tuple([id]),
    revertRun: z.tuple([id]),
    previewRevertRun: z.tuple([id]),
    listSessions: z.tuple([]),
    openSession: z.tuple([sessionId]),
    newSession: z.tuple([]),
    renameSession: z.tuple([sessionId, sessionTitle]),
    deleteSession: z.tuple([sessionId]),
    sessionChanges: z.tuple([]),
    revertFiles: z.tuple([z.array(relativePath).min(1).max(10_000)]),
    getSettings: z.tuple([]),
    setProviderSettings: z.tuple([providerSettingsSchema]),
    setApiKey: z.tuple([apiKeySchema]),
    clearApiKey: z.tuple([]),
    setProviderTimeouts: z.tuple([providerTimeoutsSchema()]),
    setModelSettings: z.tuple([modelIdSchema(), modelSettingsSchema()]),
    listModels: z.tuple([]),
    testConnection: z.tuple([]),
    setMode: z.tuple([modeSchema]),
    getPermissions: z.tuple([]),
    setNetwork: z.tuple([z.enum(['off', 'ask', 'allow'])]),
    deleteRule: z.tuple([id]),
    revokeGrant: z.tuple([id]),
    getMcpOverview: z.tuple([]),
    // The `mcpServers` JSON the person pasted; main parses and checks every entry.
    addMcpServers: z.tuple([
      z
        .string()
        .min(2)
        .max(256 * 1024),
    ]),
    removeMcpServer: z.tuple([mcpServerName]),
    setMcpServerChoices: z.tuple([z.enum(['app', 'project']), mcpServerName, mcpChoicesSchema]),
    acceptProjectMcp: z.tuple([z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in hex')]),
    revokeProjectMcp: z.tuple([]),
    restartMcpServer: z.tuple([mcpServerName]),
    allowMcpServer: z.tuple([mcpServerName, z.enum(['session', 'always'])]),
  } satisfies Record<TandemInvokeMethod, z.ZodType>;
});
