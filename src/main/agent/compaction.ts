// Compaction: one extra request asks the model to summarise the older part of the session (what
// the person wants, decisions, files changed, what is left). The older part goes as a digest
// that always fits the window: long texts cut by level, then the middle left out.
import type { Usage } from '../../shared/tool-types';
import type { ChatMessage } from './chat-message';
import { SUMMARY_HEADER } from './context';
import type { ModelWindow } from './model-window';
import type { ChatProvider } from './provider';
import type { MessageCounter } from './token-counter';

export const SUMMARISER_PROMPT = [
  'You summarise the earlier part of a working session between a person and a coding agent (you),',
  'so that the agent can go on from the summary alone; the older messages will not be sent again.',
  'Write plain text under these headings:',
  '- What the person wants: their requests and requirements, in their words where short.',
  '- Decisions made, and why.',
  '- Files created, changed or deleted (paths, and what changed), and commands that mattered.',
  '- What is done, what is left to do, and anything to watch out for.',
  'Keep names, paths, numbers and exact requirements. Do not invent anything. Do not call tools.',
].join('\n');

/** The answer's share: an eighth of the window, within bounds. */
export function summaryTokensFor(window: ModelWindow): number {
  return Math.max(256, Math.min(4096, Math.floor(window.contextTokens / 8)));
}

export type SummaryOutcome =
  | { readonly ok: true; readonly summary: string; readonly usage?: Usage }
  | { readonly ok: false; readonly message: string; readonly usage?: Usage };

export interface SummaryRequest {
  readonly provider: ChatProvider;
  readonly counter: MessageCounter;
  readonly window: ModelWindow;
  readonly material: readonly ChatMessage[];
  readonly signal: AbortSignal;
  readonly onRetry?: (info: { attempt: number; delayMs: number; message: string }) => void;
}

/** Asks the model for the summary; a failure is a value (the caller falls back). */
export async function requestSummary(request: SummaryRequest): Promise<SummaryOutcome> {
  const { counter, window } = request;
  const answerTokens = summaryTokensFor(window);
  const words = Math.round(answerTokens * 0.6);
  const ask = `Write the summary now, in at most about ${words} words.`;
  const fixed =
    counter.fixedText(SUMMARISER_PROMPT) + counter.fixedText(ask) + counter.fixedText(INTRO) + 24;
  // Prompt and answer within the window, with the same margin as every request.
  const room = counter.rawWithin(window.contextTokens - answerTokens - marginOf(window)) - fixed;
  const digest = digestWithin(request.material, room, counter);
  const turn = await request.provider.streamTurn({
    messages: [
      { role: 'system', content: SUMMARISER_PROMPT },
      { role: 'user', content: `${INTRO}\n\n${digest}\n\n${ask}` },
    ],
    tools: [],
    answerLimit: { tokens: answerTokens, field: window.limitField },
    signal: request.signal,
    ...(request.onRetry ? { onRetry: request.onRetry } : {}),
  });
  const usage = turn.usage ? { usage: turn.usage } : {};
  const summary = turn.text.trim();
  if (summary === '') {
    return { ok: false, message: 'the model answered without a summary', ...usage };
  }
  // A model that ignores the limit still gets a bounded summary.
  const limit = answerTokens * 4;
  return {
    ok: true,
    summary: summary.length > limit ? `${summary.slice(0, limit)} […]` : summary,
    ...usage,
  };
}

/** Tokens kept free below the window for what no count foresees (2 %, at least 64). */
export function marginOf(window: ModelWindow): number {
  return Math.max(64, Math.ceil(window.contextTokens * 0.02));
}

const INTRO =
  'Here is the earlier part of the session, oldest first (long texts, outputs and arguments cut):';

interface Level {
  readonly user: number;
  readonly text: number;
  readonly args: number;
  readonly output: number;
}

const LEVELS: readonly Level[] = [
  { user: 4000, text: 1000, args: 160, output: 400 },
  { user: 1500, text: 400, args: 100, output: 120 },
  { user: 600, text: 160, args: 60, output: 0 },
];

/** The material as lines within `rawTokens`: each level cuts more; the last leaves out the middle. */
export function digestWithin(
  material: readonly ChatMessage[],
  rawTokens: number,
  counter: MessageCounter,
): string {
  let lines: string[] = [];
  for (const level of LEVELS) {
    lines = material.flatMap((message) => digestLines(message, level));
    const text = lines.join('\n');
    if (counter.text.count(text) <= rawTokens) return text;
  }
  // Still too long: the first lines (an earlier summary, the first task) and the latest that fit.
  const costs = lines.map((line) => counter.text.count(line) + 1);
  const marker = 16;
  let left = rawTokens - marker;
  const head: string[] = [];
  let i = 0;
  for (; i < Math.min(2, lines.length) && (costs[i] ?? 0) <= left / 2; i++) {
    head.push(lines[i] as string);
    left -= costs[i] ?? 0;
  }
  const tail: string[] = [];
  for (let j = lines.length - 1; j >= i && (costs[j] ?? 0) <= left; j--) {
    tail.unshift(lines[j] as string);
    left -= costs[j] ?? 0;
  }
  const omitted = lines.length - head.length - tail.length;
  return [...head, `[… ${omitted} lines of the session left out here …]`, ...tail].join('\n');
}

function digestLines(message: ChatMessage, level: Level): string[] {
  switch (message.role) {
    case 'system':
      return [];
    case 'user':
      if (message.content.startsWith(SUMMARY_HEADER)) {
        return [
          `Summary of what came before:\n${message.content.slice(SUMMARY_HEADER.length).trim()}`,
        ];
      }
      return [`Person: ${clip(message.content, level.user)}`];
    case 'assistant': {
      const lines = message.content?.trim() ? [`You: ${clip(message.content, level.text)}`] : [];
      for (const call of message.tool_calls ?? []) {
        lines.push(
          `You called ${call.function.name} ${clipArguments(call.function.arguments, level.args)}`,
        );
      }
      return lines;
    }
    case 'tool': {
      const size = `${message.content.length.toLocaleString('en-US')} characters`;
      return level.output === 0 ? [`→ (${size})`] : [`→ ${clip(message.content, level.output)}`];
    }
  }
}

/** Arguments as `{"path":"a.ts","content":"first… (8,800 characters)"}`, each field bounded. */
function clipArguments(text: string, limit: number): string {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      const fields = Object.entries(parsed as Record<string, unknown>).map(([key, value]) => {
        const raw = typeof value === 'string' ? value : JSON.stringify(value);
        return `${key}: ${clip(raw ?? '', limit)}`;
      });
      return `(${fields.join(', ')})`;
    }
  } catch {
    // Not JSON: cut as text.
  }
  return `(${clip(text, limit)})`;
}

function clip(text: string, limit: number): string {
  // Cut first, and no regular expression: one over a long run of spaces takes quadratic time.
  const flat = text
    .slice(0, limit * 2 + 64)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ⏎ ');
  return flat.length <= limit && text.length <= limit * 2 + 64
    ? flat
    : `${flat.slice(0, limit)}… (${text.length.toLocaleString('en-US')} characters)`;
}
