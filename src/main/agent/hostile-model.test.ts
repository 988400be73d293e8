// The hostile model suite: over a thousand generated malformed turns (seeded, so a failure can be
// replayed with HOSTILE_SEED) through the real provider, runner, registry and transcript, against
// the scripted server. Whatever the model sends: nothing crashes, every call is answered once by
// id, nothing runs that the policy would refuse, transcripts reopen as they were, and requests
// stay bounded. It prints its figures; it asserts no times.
import { rm } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { Type } from '@sinclair/typebox';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent, RunFinishReason } from '../../shared/events';
import { makeTempDir } from '../../test-support/agent-harness';
import { seededRandom, hostileTurn, type HostileKind } from '../../test-support/hostile-turns';
import { startScriptedOpenAIServer } from '../../test-support/scripted-openai-server';
import type { PermissionGate } from '../permissions/gate';
import { createToolRegistry } from '../tools/registry';
import { defineTool, type AnyTool } from '../tools/tool';
import { createAgent } from './agent';
import { createOpenAIProvider } from './provider';

const SEED = Number(process.env.HOSTILE_SEED ?? 20_251_010);
const MIN_TURNS = 1_000;
const SESSIONS = 4;
/** The model's window, as `--context-tokens` would give it. */
const WINDOW_TOKENS = 8_000;
/**
 * The prompt within the window at the uncalibrated 2.5 bytes a token (this server's usage
 * figures are placeholders, which calibration ignores), each byte at most 6 once JSON-escaped
 * (a control character becomes \u0000), plus the tool definitions. Turns carry up to 1.1 MB.
 */
const MAX_REQUEST_BYTES = WINDOW_TOKENS * 2.5 * 6 + 16 * 1024;

interface Executed {
  /** Session and call id: call ids are unique within a session only. */
  readonly callId: string;
  readonly name: string;
  readonly args: unknown;
}

function suiteTools(executed: Executed[]): AnyTool[] {
  const record = (name: string, ctx: { sessionId: string; callId: string }, args: unknown): void =>
    void executed.push({ callId: `${ctx.sessionId}/${ctx.callId}`, name, args });
  return [
    defineTool({
      name: 'echo',
      description: 'Returns the start of its text.',
      parameters: Type.Object({ text: Type.String({ maxLength: 100_000 }) }),
      effect: 'read',
      async execute(args, ctx) {
        record('echo', ctx, args);
        return args.text.slice(0, 100);
      },
    }),
    defineTool({
      name: 'count',
      description: 'Counts items.',
      parameters: Type.Object({ items: Type.Array(Type.Unknown()) }),
      effect: 'read',
      async execute(args, ctx) {
        record('count', ctx, args);
        return `${args.items.length} items`;
      },
    }),
    defineTool({
      name: 'note',
      description: 'A write.',
      parameters: Type.Object({ text: Type.String() }),
      effect: 'write',
      async execute(args, ctx) {
        record('note', ctx, args);
        return 'noted';
      },
    }),
    defineTool({
      name: 'run',
      description: 'A command.',
      parameters: Type.Object({ text: Type.Optional(Type.String()) }),
      effect: 'exec',
      async execute(args, ctx) {
        record('run', ctx, args);
        return 'ran';
      },
    }),
    defineTool({
      name: 'fetch_page',
      description: 'A fetch.',
      parameters: Type.Object({ url: Type.String() }),
      effect: 'network',
      async execute(args, ctx) {
        record('fetch_page', ctx, args);
        return 'fetched';
      },
    }),
  ];
}

/** Problems found in one request body: a call without exactly one answer, an answer without a call. */
function conversationProblems(body: unknown): string[] {
  const messages = (body as { messages?: Record<string, unknown>[] }).messages ?? [];
  const problems: string[] = [];
  const seen = new Set<string>();
  if (messages[0]?.role !== 'system') problems.push('the first message is not the system prompt');
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as Record<string, unknown>;
    if (message.role === 'tool') {
      problems.push(`an answer to ${String(message.tool_call_id)} without its call`);
      continue;
    }
    const calls = (message.tool_calls ?? []) as { id: string }[];
    for (const call of calls) {
      if (seen.has(call.id)) problems.push(`call id ${call.id} used twice`);
      seen.add(call.id);
      const answer = messages[i + 1];
      if (answer?.role !== 'tool' || answer.tool_call_id !== call.id) {
        problems.push(`call ${call.id} is not answered right after its message`);
        break;
      }
      i++;
    }
  }
  return problems;
}

/** Each call: one `tool-call-started`, then one `tool-result`, for ids unique in the session. */
function eventProblems(events: readonly RunEvent[]): string[] {
  const state = new Map<string, 'started' | 'answered'>();
  const problems: string[] = [];
  for (const event of events) {
    if (event.type === 'tool-call-started') {
      if (state.has(event.callId)) problems.push(`${event.callId} started twice`);
      state.set(event.callId, 'started');
    }
    if (event.type === 'tool-result') {
      if (state.get(event.callId) !== 'started') problems.push(`${event.callId}: a stray result`);
      state.set(event.callId, 'answered');
    }
    if (event.type === 'error' && event.message.startsWith('internal error')) {
      problems.push(event.message);
    }
  }
  for (const [callId, status] of state) {
    if (status !== 'answered') problems.push(`${callId} never answered`);
  }
  return problems;
}

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('a hostile model', () => {
  it(`${MIN_TURNS}+ malformed turns: no crash, every call answered once, only allowed calls ran, transcripts reopen, requests bounded`, async () => {
    const started = Date.now();
    const g = seededRandom(SEED);
    const kinds = new Map<HostileKind, number>();
    const requestProblems: string[] = [];
    let turns = 0;
    let largestRequest = 0;
    const server = await startScriptedOpenAIServer({
      recordRequests: false,
      turns: (_index, body, bytes) => {
        turns++;
        largestRequest = Math.max(largestRequest, bytes);
        if (bytes > MAX_REQUEST_BYTES) requestProblems.push(`a request of ${bytes} bytes`);
        requestProblems.push(...conversationProblems(body));
        const { kind, turn } = hostileTurn(g);
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
        return turn;
      },
    });
    const folder = await makeTempDir('hostile-proj');
    const dataDir = await makeTempDir('hostile-data');
    dirs.push(folder, dataDir);
    const executed: Executed[] = [];
    const judged = new Map<string, { name: string; args: unknown; verdict: 'run' | 'refuse' }>();
    // The policy: reads run, nothing else does. The gate records what it was shown.
    const gate: PermissionGate = async (request) => {
      const verdict = request.tool.effect === 'read' ? 'run' : 'refuse';
      judged.set(`${request.ctx.sessionId}/${request.callId}`, {
        name: request.tool.name,
        args: request.args,
        verdict,
      });
      return verdict === 'run'
        ? { kind: 'run', provenance: 'read', permit: { basis: 'read-only' } }
        : { kind: 'refuse', message: 'Refused by the test policy.' };
    };
    const reasons = new Map<RunFinishReason, number>();
    let runs = 0;
    const allEventProblems: string[] = [];
    const reopenProblems: string[] = [];
    try {
      for (let s = 0; s < SESSIONS; s++) {
        const options = {
          provider: createOpenAIProvider({
            baseUrl: server.baseUrl,
            model: 'hostile-model',
            apiKey: 'k',
            retry: { maxAttempts: 2 },
            sleep: async () => {},
          }),
          registry: createToolRegistry(suiteTools(executed)),
          gate,
          folder,
          dataDir,
          systemPrompt: 'hostile suite',
          maxSteps: 6,
          contextTokens: WINDOW_TOKENS,
        };
        const agent = createAgent(options);
        const events: RunEvent[] = [];
        agent.onEvent((event) => events.push(event));
        while (turns < ((s + 1) * MIN_TURNS) / SESSIONS) {
          const reason = await agent.startRun(`task ${++runs}`).done;
          reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        }
        const history = agent.messages().slice();
        await agent.close();
        allEventProblems.push(...eventProblems(events));

        const reopened = createAgent({ ...options, sessionId: agent.sessionId });
        if (!isDeepStrictEqual(reopened.messages(), history)) {
          reopenProblems.push(`session ${s}: the reopened history differs`);
        }
        reopenProblems.push(...reopened.loadProblems());
        await reopened.close();
      }
    } finally {
      await server.close();
    }

    const notAllowed = executed.filter((e) => {
      const verdict = judged.get(e.callId);
      return (
        verdict?.verdict !== 'run' ||
        verdict.name !== e.name ||
        !isDeepStrictEqual(verdict.args, e.args)
      );
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `hostile model (seed ${SEED}): ${turns} turns in ${runs} runs over ${SESSIONS} sessions, ` +
        `${seconds} s; ${executed.length} calls ran, ${judged.size} judged; largest request ` +
        `${largestRequest} bytes; runs ended ${JSON.stringify(Object.fromEntries(reasons))}; ` +
        `turn kinds ${JSON.stringify(Object.fromEntries(kinds))}`,
    );
    expect(turns).toBeGreaterThanOrEqual(MIN_TURNS);
    expect(requestProblems.slice(0, 10)).toEqual([]);
    expect(allEventProblems.slice(0, 10)).toEqual([]);
    expect(reopenProblems).toEqual([]);
    expect(notAllowed.slice(0, 5)).toEqual([]);
    expect(executed.every((e) => e.name === 'echo' || e.name === 'count')).toBe(true);
    // The suite exercised what it claims to: calls ran, calls were refused, runs failed and ended.
    expect(executed.length).toBeGreaterThan(100);
    expect([...judged.values()].some((j) => j.verdict === 'refuse')).toBe(true);
    expect(reasons.get('error')).toBeGreaterThan(10);
    expect(reasons.get('done')).toBeGreaterThan(10);
  }, 120_000);
});
