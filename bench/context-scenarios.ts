// Scripted sessions for measuring what each request carries: the built-in tools' real schemas
// with scripted results, an in-process model that plays the steps and records every request.
// Content is the repository's own source, so sizes and token ratios are those of real code.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { AssistantTurn, ChatProvider, TurnRequest } from '../src/main/agent/provider';
import { createBuiltinTools } from '../src/main/tools/builtin-tools';
import type { AnyTool } from '../src/main/tools/tool';

export interface ScenarioStep {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly output: string;
}

/** The repository's TypeScript sources, in a fixed order. */
export function sourceCorpus(root = join(__dirname, '..', 'src')): string {
  const parts: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name)) parts.push(readFileSync(path, 'utf8'));
    }
  };
  walk(root);
  return parts.join('\n');
}

function slicer(corpus: string): (bytes: number) => string {
  let at = 0;
  return (bytes) => {
    if (at + bytes > corpus.length) at = 0;
    const text = corpus.slice(at, at + bytes);
    at += bytes;
    return text;
  };
}

/** A realistic half hour: look around, read, edit, write two files, run the tests. */
export function thirtyStepScenario(corpus: string): ScenarioStep[] {
  const text = slicer(corpus);
  const read = (path: string, kb: number): ScenarioStep => ({
    tool: 'read_file',
    args: { path },
    output: text(kb * 1024),
  });
  const shell = (command: string, kb: number): ScenarioStep => ({
    tool: 'shell',
    args: { command },
    output: text(kb * 1024),
  });
  const edit = (path: string): ScenarioStep => ({
    tool: 'edit_file',
    args: { path, old_text: text(300), new_text: text(340) },
    output: `Edited ${path} (+4 −3).`,
  });
  const write = (path: string, bytes: number): ScenarioStep => ({
    tool: 'write_file',
    args: { path, content: text(bytes) },
    output: `Created ${path} (${Math.round(bytes / 40)} lines).`,
  });
  return [
    { tool: 'list_dir', args: { path: '.' }, output: text(1536) },
    { tool: 'search', args: { pattern: 'fitHistory' }, output: text(2048) },
    read('src/main/agent/context.ts', 8),
    read('src/main/agent/runner.ts', 5),
    read('src/main/agent/agent.ts', 6),
    read('src/main/agent/session.ts', 5),
    read('src/main/agent/provider.ts', 8),
    read('src/shared/events.ts', 4),
    edit('src/main/agent/context.ts'),
    shell('npx vitest run src/main/agent', 4),
    read('src/main/agent/context.test.ts', 7),
    write('src/main/agent/token-counter.ts', 8800),
    shell('npx tsc --noEmit -p tsconfig.node.json', 2),
    edit('src/main/agent/token-counter.ts'),
    edit('src/main/agent/runner.ts'),
    read('src/main/agent/tool-calls.ts', 5),
    { tool: 'search', args: { pattern: 'estimateTokens' }, output: text(1536) },
    read('src/main/agent/hostile-model.test.ts', 8),
    write('src/main/agent/token-counter.test.ts', 8800),
    shell('npx vitest run src/main/agent/token-counter.test.ts', 6),
    edit('src/main/agent/token-counter.ts'),
    shell('npx vitest run src/main/agent/token-counter.test.ts', 3),
    read('src/cli/run-command.ts', 4),
    edit('src/cli/run-command.ts'),
    edit('src/cli/run-flags.ts'),
    shell('npx vitest run src/cli', 8),
    read('BENCHMARKS.md', 2),
    write('docs/context.md', 4096),
    shell('git status --short', 1),
  ];
}

/** Hours of work: `steps` turns, every fifth a write_file of 8.8 KB, reads, searches and commands between. */
export function longScenario(corpus: string, steps: number): ScenarioStep[] {
  const text = slicer(corpus);
  const out: ScenarioStep[] = [];
  for (let i = 1; i <= steps; i++) {
    const path = `src/module-${i % 40}.ts`;
    switch (i % 5) {
      case 0:
        out.push({
          tool: 'write_file',
          args: { path, content: text(8800) },
          output: `Wrote ${path} (+120 −80).`,
        });
        break;
      case 1:
        out.push({ tool: 'read_file', args: { path }, output: text(4096) });
        break;
      case 2:
        out.push({ tool: 'search', args: { pattern: `name${i}` }, output: text(2048) });
        break;
      case 3:
        out.push({ tool: 'shell', args: { command: 'npm test' }, output: text(3072) });
        break;
      default:
        out.push({
          tool: 'edit_file',
          args: { path, old_text: text(400), new_text: text(500) },
          output: `Edited ${path} (+6 −4).`,
        });
    }
  }
  return out;
}

/** The built-in tools as the model sees them, answering with the scripted step's output. */
export function scenarioTools(current: () => ScenarioStep | undefined): AnyTool[] {
  return createBuiltinTools().map((tool) => ({
    ...tool,
    execute: async () => current()?.output ?? '',
  }));
}

/** One write of a generated file of `kb` KB, then ordinary steps: what every later request carries. */
export function bigWriteScenario(corpus: string, kb: number, after: number): ScenarioStep[] {
  const text = slicer(corpus);
  const content = Array.from({ length: kb / 25 }, () => text(25 * 1024)).join('');
  const steps: ScenarioStep[] = [
    { tool: 'read_file', args: { path: 'src/table.ts' }, output: text(2048) },
    {
      tool: 'write_file',
      args: { path: 'src/generated-table.ts', content },
      output: 'Created src/generated-table.ts (15,000 lines).',
    },
  ];
  return [...steps, ...longScenario(corpus, after)];
}

export interface RecordedRequest {
  readonly bytes: number;
  /** o200k_base tokens of the message texts, call arguments and tool list (gpt-4o's count). */
  readonly tokens: number;
  readonly messages: number;
  /** A request without tools: compaction's summary request. */
  readonly summary: boolean;
}

/**
 * Plays the steps, one call a turn, then answers "done"; records each request's size. A request
 * without tools is a summary request (compaction): it is answered with a summary, not a step.
 */
export function scenarioModel(
  model: string,
  steps: readonly ScenarioStep[],
  requests: RecordedRequest[],
  onStep: (step: ScenarioStep | undefined) => void,
): ChatProvider {
  let turn = 0;
  return {
    model,
    baseUrl: 'in-process',
    async streamTurn(request: TurnRequest): Promise<AssistantTurn> {
      const body = JSON.stringify({ model, messages: request.messages, tools: request.tools });
      const summary = request.tools.length === 0;
      requests.push({
        bytes: Buffer.byteLength(body),
        tokens: requestTokens(request),
        messages: request.messages.length,
        summary,
      });
      if (summary) {
        return { text: SUMMARY, toolCalls: [], finishReason: 'stop' };
      }
      const step = steps[turn++];
      onStep(step);
      if (!step) return { text: 'done', toolCalls: [], finishReason: 'stop' };
      return {
        text: '',
        toolCalls: [
          {
            id: `call_${turn}`,
            type: 'function',
            function: { name: step.tool, arguments: JSON.stringify(step.args) },
          },
        ],
        finishReason: 'tool_calls',
      };
    },
  };
}

const SUMMARY = [
  'What the person wants: real token counts in the context, with tests.',
  'Decisions: gpt-tokenizer for OpenAI models, a calibrated estimate otherwise.',
  'Files changed: src/main/agent/token-counter.ts, src/main/agent/context.ts, their tests.',
  'Left to do: the CLI flag and the benchmark figures.',
].join('\n');

// Each distinct text is tokenized once: a long session resends the same messages every time.
const counted = new Map<string, number>();
function tokens(text: string): number {
  let n = counted.get(text);
  if (n === undefined) {
    n = countTokens(text, { disallowedSpecial: new Set() });
    counted.set(text, n);
  }
  return n;
}

/** The request's tokens as gpt-4o's tokenizer counts its texts (not the JSON around them). */
function requestTokens(request: TurnRequest): number {
  let sum = request.tools.length ? tokens(JSON.stringify(request.tools)) : 0;
  for (const message of request.messages) {
    sum += tokens(message.content ?? '');
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) sum += tokens(call.function.arguments);
    }
  }
  return sum;
}
