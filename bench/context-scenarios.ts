// Scripted sessions for measuring what each request carries: the built-in tools' real schemas
// with scripted results, an in-process model that plays the steps and records every request.
// Content is the repository's own source, so sizes and token ratios are those of real code.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
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

export interface RecordedRequest {
  readonly bytes: number;
  readonly messages: number;
}

/** Plays the steps, one call a turn, then answers "done"; records each request's size in bytes. */
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
      requests.push({ bytes: Buffer.byteLength(body), messages: request.messages.length });
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
