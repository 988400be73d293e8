import { describe, expect, it } from 'vitest';
import type { PermissionsInfo, SettingsInfo, TandemInvokeMethod } from '../../shared/api';
import type { McpOverview } from '../../shared/mcp-types';
import type { TandemHandlers } from './handler-types';
import { IpcValidationError, createValidatedDispatcher } from './validated-handlers';

const settingsInfo: SettingsInfo = {
  baseUrl: 'https://api.openai.com/v1',
  model: '',
  presetId: 'openai',
  hasApiKey: false,
  needsApiKey: true,
  keyHeldFor: null,
  keyStorage: { persistent: false, note: '' },
  timeouts: { connectSeconds: 60, idleSeconds: 120, requestSeconds: 1200 },
  modelSettings: {},
};
const permissionsInfo: PermissionsInfo = {
  folder: '/x',
  mode: 'ask',
  network: 'ask',
  sandbox: { kind: 'none', available: false, description: '' },
  rules: [],
  grants: [],
};

const mcpOverview: McpOverview = { servers: [], project: { kind: 'none' }, problems: [] };

/** Handlers that record what reached them, so a test can prove bad input never did. */
function recordingHandlers(): {
  handlers: TandemHandlers;
  calls: [TandemInvokeMethod, unknown[]][];
} {
  const calls: [TandemInvokeMethod, unknown[]][] = [];
  const record =
    <T>(method: TandemInvokeMethod, value: T) =>
    async (...args: unknown[]): Promise<T> => {
      calls.push([method, args]);
      return value;
    };
  const handlers: TandemHandlers = {
    getAppInfo: record('getAppInfo', {
      name: 'Tandem',
      version: '0',
      platform: 'linux',
      sandbox: { kind: 'none', available: false, description: '' },
    }),
    ping: async (message) => {
      calls.push(['ping', [message]]);
      return `pong: ${message}`;
    },
    chooseFolder: record('chooseFolder', null),
    openFolder: record('openFolder', { folder: '/x', name: 'x', mode: 'ask' }),
    recentFolders: record('recentFolders', []),
    getProviderStatus: record('getProviderStatus', {
      baseUrl: '',
      model: '',
      hasApiKey: false,
      needsApiKey: false,
    }),
    startRun: record('startRun', { runId: 'r', sessionId: 's' }),
    stopRun: record('stopRun', undefined),
    stopCall: record('stopCall', false),
    compactSession: record('compactSession', { ok: true, message: '' }),
    answerApproval: record('answerApproval', undefined),
    answerEdited: record('answerEdited', undefined),
    previewAlwaysRule: record('previewAlwaysRule', {
      rules: [],
      matched: 0,
      examples: [],
      summary: '',
      choices: [],
    }),
    sendTerminalInput: record('sendTerminalInput', true),
    revertCall: record('revertCall', { ok: true, message: '', files: [] }),
    revertRun: record('revertRun', { ok: true, message: '', files: [] }),
    previewRevertRun: record('previewRevertRun', []),
    listSessions: record('listSessions', []),
    openSession: record('openSession', { sessionId: 's', title: 't', events: [] }),
    newSession: record('newSession', undefined),
    renameSession: record('renameSession', []),
    deleteSession: record('deleteSession', []),
    sessionChanges: record('sessionChanges', []),
    revertFiles: record('revertFiles', { ok: true, message: '', files: [] }),
    getSettings: record('getSettings', settingsInfo),
    setProviderSettings: record('setProviderSettings', settingsInfo),
    setApiKey: record('setApiKey', settingsInfo),
    clearApiKey: record('clearApiKey', settingsInfo),
    setProviderTimeouts: record('setProviderTimeouts', settingsInfo),
    setModelSettings: record('setModelSettings', settingsInfo),
    listModels: record('listModels', []),
    testConnection: record('testConnection', { ok: true, message: 'ok' }),
    setMode: record('setMode', { folder: '/x', name: 'x', mode: 'ask' }),
    getPermissions: record('getPermissions', null),
    setNetwork: record('setNetwork', permissionsInfo),
    deleteRule: record('deleteRule', permissionsInfo),
    revokeGrant: record('revokeGrant', permissionsInfo),
    getMcpOverview: record('getMcpOverview', mcpOverview),
    addMcpServers: record('addMcpServers', mcpOverview),
    removeMcpServer: record('removeMcpServer', mcpOverview),
    setMcpServerChoices: record('setMcpServerChoices', mcpOverview),
    acceptProjectMcp: record('acceptProjectMcp', mcpOverview),
    revokeProjectMcp: record('revokeProjectMcp', mcpOverview),
    restartMcpServer: record('restartMcpServer', mcpOverview),
    allowMcpServer: record('allowMcpServer', mcpOverview),
  };
  return { handlers, calls };
}

describe('createValidatedDispatcher', () => {
  it('passes valid calls through and returns the handler result', async () => {
    const { handlers, calls } = recordingHandlers();
    const dispatch = createValidatedDispatcher(handlers);
    await expect(dispatch('ping', ['hello'])).resolves.toBe('pong: hello');
    await dispatch('answerApproval', ['req-1', 'hash', { kind: 'deny-with-note', note: 'no' }]);
    const widened = { kind: 'allow-always', widen: [['npm', 'test']] };
    await dispatch('answerApproval', ['req-2', 'hash', widened]);
    await expect(dispatch('sendTerminalInput', ['call-1', 'y'.repeat(4096)])).resolves.toBe(true);
    const priced = {
      contextTokens: 16_000,
      prices: { inputPerMillion: 2.5, outputPerMillion: 10 },
    };
    await dispatch('setModelSettings', ['gpt-4o', priced]);
    const choices = { trusted: true, projectAccess: 'read-write', network: false };
    await dispatch('setMcpServerChoices', ['project', 'fs-1_a', choices]);
    expect(calls).toEqual([
      ['ping', ['hello']],
      ['answerApproval', ['req-1', 'hash', { kind: 'deny-with-note', note: 'no' }]],
      ['answerApproval', ['req-2', 'hash', widened]],
      ['sendTerminalInput', ['call-1', 'y'.repeat(4096)]],
      ['setModelSettings', ['gpt-4o', priced]],
      ['setMcpServerChoices', ['project', 'fs-1_a', choices]],
    ]);
  });

  it.each<[string, string, unknown, RegExp]>([
    [
      'a number as a folder',
      'openFolder',
      [42],
      /tandem\.openFolder .*argument 1: .*expected string/,
    ],
    ['a missing argument', 'openFolder', [], /tandem\.openFolder expects 1 argument, got 0/],
    ['an extra argument', 'getAppInfo', ['x'], /tandem\.getAppInfo expects 0 arguments, got 1/],
    ['an empty folder', 'openFolder', [''], /argument 1/],
    ['a NUL byte in a path', 'openFolder', ['/tmp/a\0b'], /NUL/],
    ['an unknown answer kind', 'answerApproval', ['r', 'h', { kind: 'yes' }], /argument 3/],
    [
      'an extra field in an answer',
      'answerApproval',
      ['r', 'h', { kind: 'deny', x: 1 }],
      /argument 3/,
    ],
    // A widening is a list of word lists, only on "always"; main then checks it against the card.
    ...(
      [
        ['a widening that is one string', { kind: 'allow-always', widen: 'npm test' }],
        ['a widening of a string list', { kind: 'allow-always', widen: ['npm', 'test'] }],
        ['an empty widening list', { kind: 'allow-always', widen: [] }],
        ['an empty prefix', { kind: 'allow-always', widen: [[]] }],
        ['a NUL byte in a widened word', { kind: 'allow-always', widen: [['npm', 'te\0st']] }],
        ['a widening on "allow once"', { kind: 'allow-once', widen: [['npm', 'test']] }],
        ['a widening on "for this session"', { kind: 'allow-session', widen: [['npm']] }],
        [
          'a prefix of 65 words',
          { kind: 'allow-always', widen: [Array.from({ length: 65 }, () => 'w')] },
        ],
      ] as const
    ).map(([name, answer]): [string, string, unknown, RegExp] => [
      name,
      'answerApproval',
      ['r', 'h', answer],
      /argument 3/,
    ]),
    ['an empty task', 'startRun', [''], /tandem\.startRun/],
    [
      'terminal input over 4 KB',
      'sendTerminalInput',
      ['call-1', 'x'.repeat(4097)],
      /tandem\.sendTerminalInput .*argument 2/,
    ],
    ['terminal input that is not text', 'sendTerminalInput', ['call-1', 7], /argument 2/],
    ['a revert without a call id', 'revertCall', [''], /tandem\.revertCall .*argument 1/],
    ['a rule preview for a number', 'previewAlwaysRule', [3], /argument 1/],
    [
      'a session id that is a path',
      'openSession',
      ['../../etc'],
      /tandem\.openSession .*argument 1/,
    ],
    ['a session id with a slash', 'deleteSession', ['a/b'], /argument 1/],
    ['an empty session title', 'renameSession', ['s1', '   '], /argument 2: the title is empty/],
    ['a title with a line break', 'renameSession', ['s1', 'a\nb'], /control characters/],
    ['a title of 201 characters', 'renameSession', ['s1', 'x'.repeat(201)], /argument 2/],
    ['an absolute path to revert', 'revertFiles', [['/etc/passwd']], /relative to the project/],
    ['a path climbing out', 'revertFiles', [['src/../../x']], /relative to the project/],
    ['no paths to revert', 'revertFiles', [[]], /argument 1/],
    [
      'an edit of an unknown kind',
      'answerEdited',
      ['r', 'h', { kind: 'url', url: 'x' }],
      /argument 3/,
    ],
    [
      'an empty edited command',
      'answerEdited',
      ['r', 'h', { kind: 'command', command: '  ' }],
      /the command is empty/,
    ],
    [
      'an edit with a NUL byte',
      'answerEdited',
      ['r', 'h', { kind: 'content', content: 'a\0b' }],
      /NUL/,
    ],
    [
      'an edit with an extra field',
      'answerEdited',
      ['r', 'h', { kind: 'command', command: 'ls', path: '/' }],
      /argument 3/,
    ],
    // MCP: server names are the plain names tool names are built from; choices are a closed set.
    ['a server name with "__"', 'removeMcpServer', ['a__b'], /argument 1/],
    ['a server name with a slash', 'restartMcpServer', ['../x'], /argument 1/],
    [
      'choices with an extra field',
      'setMcpServerChoices',
      [
        'app',
        'db',
        { trusted: true, projectAccess: 'read-only', network: false, autoApprove: true },
      ],
      /argument 3/,
    ],
    [
      'an unknown source',
      'setMcpServerChoices',
      ['file', 'db', { trusted: true, projectAccess: 'read-only', network: false }],
      /argument 1/,
    ],
    ['a project hash that is not sha256', 'acceptProjectMcp', ['abc'], /argument 1/],
    ['an unknown allow scope', 'allowMcpServer', ['db', 'forever'], /argument 2/],
    ['servers text over 256 KB', 'addMcpServers', ['x'.repeat(256 * 1024 + 1)], /argument 1/],
    [
      'an idle timeout past 300 s',
      'setProviderTimeouts',
      [{ connectSeconds: 60, idleSeconds: 301, requestSeconds: 1200 }],
      /Idle timeout must be at most 300 s/,
    ],
    [
      'a fractional timeout',
      'setProviderTimeouts',
      [{ connectSeconds: 0.5, idleSeconds: 120, requestSeconds: 1200 }],
      /Connect timeout must be a whole number of seconds/,
    ],
    ['compaction with an argument', 'compactSession', ['now'], /expects 0 arguments/],
    [
      'a window below 2,048 tokens',
      'setModelSettings',
      ['gpt-4o', { contextTokens: 1000 }],
      /argument 2/,
    ],
    [
      'a negative price',
      'setModelSettings',
      ['m', { prices: { inputPerMillion: -1, outputPerMillion: 1 } }],
      /argument 2/,
    ],
    ['an unknown model field', 'setModelSettings', ['m', { cost: 1 }], /argument 2/],
    ['a model name with a line break', 'setModelSettings', ['gpt\n4o', {}], /argument 1/],
    ['arguments that are not a list', 'ping', 'hello', /arguments must be a list/],
    ['an unknown method', 'deleteEverything', [], /Unknown method "deleteEverything"/],
    ['onEvent, which is not a channel', 'onEvent', [], /Unknown method "onEvent"/],
  ])('rejects %s before any handler runs', async (_name, method, args, message) => {
    const { handlers, calls } = recordingHandlers();
    const dispatch = createValidatedDispatcher(handlers);
    const failure = dispatch(method, args);
    await expect(failure).rejects.toBeInstanceOf(IpcValidationError);
    await expect(failure).rejects.toThrow(message);
    expect(calls).toEqual([]);
  });
});
