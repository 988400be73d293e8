import { describe, expect, it } from 'vitest';
import type { Decision, PermissionMode, SandboxState, ToolEffect } from '../../shared/tool-types';
import type { McpOrigin } from '../tools/tool';
import { GrantBook } from './grant-book';
import type { PermissionRule } from './permission-rule';
import { decidePolicy, type PolicyInput } from './policy';
import type { NetworkSetting } from './project-permissions-store';
import { realPolicyDeps } from './real-policy-deps';

const SANDBOXED: SandboxState = { kind: 'bwrap', available: true, description: 'bubblewrap' };
const FOLDER = '/tmp/tandem-mcp-policy';
/** The hash of the server definition (command, args, env, cwd / url, headers) that runs now. */
const DEFINITION = 'a'.repeat(64);
const OTHER_DEFINITION = 'b'.repeat(64);

function origin(over: Partial<McpOrigin> = {}): McpOrigin {
  return {
    server: 'db',
    tool: 'query',
    trusted: false,
    sandboxed: true,
    annotations: 'read-only, closed world',
    destructive: false,
    definition: DEFINITION,
    ...over,
  };
}

function input(over: Partial<PolicyInput> & { effect: ToolEffect }): PolicyInput {
  return {
    toolName: 'mcp__db__query',
    target: { kind: 'none' },
    folder: FOLDER,
    mode: 'ask',
    network: 'ask',
    rules: [],
    grants: [],
    sandbox: SANDBOXED,
    mcp: origin(),
    ...over,
  };
}

interface Row {
  readonly what: string;
  readonly effect: ToolEffect;
  readonly trusted: boolean;
  readonly sandboxed: boolean;
  readonly network?: NetworkSetting;
  readonly expect: Record<PermissionMode, Decision>;
}

// Effect (from annotations) × trust × sandbox, in every mode.
const TABLE: readonly Row[] = [
  {
    what: 'read tool of a trusted server',
    effect: 'read',
    trusted: true,
    sandboxed: true,
    expect: { ask: 'run', 'auto-edit': 'run', 'read-only': 'run', autonomous: 'run' },
  },
  {
    what: 'read tool of a trusted remote server',
    effect: 'read',
    trusted: true,
    sandboxed: false,
    expect: { ask: 'run', 'auto-edit': 'run', 'read-only': 'run', autonomous: 'run' },
  },
  {
    what: '"read" tool of an untrusted server',
    effect: 'read',
    trusted: false,
    sandboxed: true,
    expect: { ask: 'ask', 'auto-edit': 'ask', 'read-only': 'refuse', autonomous: 'run' },
  },
  {
    what: '"read" tool of an untrusted unsandboxed server',
    effect: 'read',
    trusted: false,
    sandboxed: false,
    expect: { ask: 'ask', 'auto-edit': 'ask', 'read-only': 'refuse', autonomous: 'ask' },
  },
  {
    what: 'exec tool of a trusted sandboxed server',
    effect: 'exec',
    trusted: true,
    sandboxed: true,
    expect: { ask: 'ask', 'auto-edit': 'ask', 'read-only': 'refuse', autonomous: 'run' },
  },
  {
    what: 'exec tool of a trusted remote server',
    effect: 'exec',
    trusted: true,
    sandboxed: false,
    expect: { ask: 'ask', 'auto-edit': 'ask', 'read-only': 'refuse', autonomous: 'ask' },
  },
  {
    what: 'open-world tool, network ask',
    effect: 'network',
    trusted: true,
    sandboxed: true,
    expect: { ask: 'ask', 'auto-edit': 'ask', 'read-only': 'refuse', autonomous: 'ask' },
  },
  {
    what: 'open-world tool, network allowed',
    effect: 'network',
    trusted: true,
    sandboxed: false,
    network: 'allow',
    expect: { ask: 'ask', 'auto-edit': 'ask', 'read-only': 'refuse', autonomous: 'run' },
  },
  {
    what: 'open-world tool, network off',
    effect: 'network',
    trusted: true,
    sandboxed: true,
    network: 'off',
    expect: { ask: 'refuse', 'auto-edit': 'refuse', 'read-only': 'refuse', autonomous: 'refuse' },
  },
];

describe('MCP calls: effect × trust × sandbox × mode', () => {
  const cases = TABLE.flatMap((row) =>
    (Object.keys(row.expect) as PermissionMode[]).map((mode) => ({
      ...row,
      mode,
      expected: row.expect[mode],
    })),
  );
  it.each(cases)('$what in $mode → $expected', async (c) => {
    const decided = await decidePolicy(
      input({
        effect: c.effect,
        mode: c.mode,
        network: c.network ?? 'ask',
        mcp: origin({ trusted: c.trusted, sandboxed: c.sandboxed }),
      }),
      realPolicyDeps,
    );
    expect(decided.decision).toBe(c.expected);
    if (decided.decision === 'run') {
      // The basis says how it may run: a trusted read by its annotations, else by the mode.
      expect(decided.basis).toBe(c.effect === 'read' && c.trusted ? 'read-only' : 'mode');
    } else {
      expect(decided.basis).toBeUndefined();
    }
    if (decided.decision === 'ask') {
      expect(decided.grantable).toEqual([
        { kind: 'tool', tool: 'mcp__db__query', definition: DEFINITION },
      ]);
    }
  });
});

describe('MCP rules, grants and provenance', () => {
  const serverRule: PermissionRule = { kind: 'mcp-server', server: 'db', definition: DEFINITION };
  const toolRule: PermissionRule = {
    kind: 'tool',
    tool: 'mcp__db__query',
    definition: DEFINITION,
  };

  it('a trusted read says why it ran', async () => {
    const decided = await decidePolicy(
      input({ effect: 'read', mcp: origin({ trusted: true }) }),
      realPolicyDeps,
    );
    expect(decided.basis).toBe('read-only');
    expect(decided.provenance).toBe('read-only by the annotations of the trusted MCP server `db`');
  });

  it('an untrusted read-only tool says its annotations cannot lower the bar', async () => {
    const decided = await decidePolicy(input({ effect: 'read' }), realPolicyDeps);
    expect(decided.decision).toBe('ask');
    expect(decided.reasons.join('\n')).toMatch(/not marked this server trusted/);
  });

  it.each([
    { what: 'a tool rule', rule: toolRule },
    { what: 'a server rule', rule: serverRule },
  ])('$what runs the call, with its provenance', async ({ rule }) => {
    const decided = await decidePolicy(input({ effect: 'exec', rules: [rule] }), realPolicyDeps);
    expect(decided.decision).toBe('run');
    expect(decided.basis).toBe('rule');
    expect(decided.usedRules).toEqual([rule]);
    expect(decided.provenance).toMatch(/this project's rule for/);
  });

  // A changed .mcp.json may put another program under the same name: the rules and grants the
  // person gave stay with the definition they were given for.
  it.each([
    {
      what: 'a server rule for another definition',
      rule: { ...serverRule, definition: OTHER_DEFINITION },
    },
    {
      what: 'a tool rule for another definition',
      rule: { ...toolRule, definition: OTHER_DEFINITION },
    },
    {
      what: 'a server rule made before definitions were kept',
      rule: { kind: 'mcp-server', server: 'db' },
    },
    {
      what: 'a tool rule made before definitions were kept',
      rule: { kind: 'tool', tool: 'mcp__db__query' },
    },
  ] satisfies { what: string; rule: PermissionRule }[])(
    '$what does not cover the call',
    async ({ rule }) => {
      const decided = await decidePolicy(input({ effect: 'exec', rules: [rule] }), realPolicyDeps);
      expect(decided.decision).toBe('ask');
      const book = new GrantBook(() => 1_000);
      book.add({
        folder: FOLDER,
        rule,
        effect: 'exec',
        scope: { kind: 'session', sessionId: 's' },
      });
      const granted = await decidePolicy(
        input({ effect: 'exec', grants: book.active(FOLDER, 's') }),
        realPolicyDeps,
      );
      expect(granted.decision).toBe('ask');
    },
  );

  it('a server rule covers only its own server', async () => {
    const other: PermissionRule = { kind: 'mcp-server', server: 'dbx', definition: DEFINITION };
    const decided = await decidePolicy(input({ effect: 'exec', rules: [other] }), realPolicyDeps);
    expect(decided.decision).toBe('ask');
  });

  it('a server rule never covers a tool named like MCP without its server', async () => {
    const decided = await decidePolicy(
      input({ effect: 'read', rules: [serverRule], mcp: undefined }),
      realPolicyDeps,
    );
    expect(decided.decision).toBe('ask');
  });

  it('grants run the call until outside content comes in; rules keep running', async () => {
    const book = new GrantBook(() => 1_000);
    book.add({
      folder: FOLDER,
      rule: serverRule,
      effect: 'exec',
      scope: { kind: 'session', sessionId: 's' },
    });
    const grants = book.active(FOLDER, 's');
    const granted = await decidePolicy(input({ effect: 'exec', grants }), realPolicyDeps);
    expect(granted.decision).toBe('run');
    expect(granted.basis).toBe('grant');
    expect(granted.provenance).toMatch(/every tool of the MCP server `db` for this session/);

    const tainted = await decidePolicy(
      input({ effect: 'read', grants, taintedBy: 'after reading https://x' }),
      realPolicyDeps,
    );
    expect(tainted.decision).toBe('ask');
    expect(tainted.reasons.join('\n')).toMatch(/paused/);

    const ruled = await decidePolicy(
      input({ effect: 'exec', rules: [serverRule], taintedBy: 'after reading https://x' }),
      realPolicyDeps,
    );
    expect(ruled.decision).toBe('run');
  });

  it('a destructive tool says so', async () => {
    const decided = await decidePolicy(
      input({ effect: 'exec', mcp: origin({ destructive: true, trusted: true }) }),
      realPolicyDeps,
    );
    expect(decided.reasons.join('\n')).toMatch(/destructive/);
  });
});
