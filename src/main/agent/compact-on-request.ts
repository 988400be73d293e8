// Compaction asked for by the person (the window's Compact button): the older part of the
// conversation summarised now, between runs, with the same request and record as automatic one.
import type { RunEvent } from '../../shared/events';
import type { ToolRegistry } from '../tools/registry';
import type { ChatMessage } from './chat-message';
import type { ChatProvider } from './provider';
import { compact, limitsFor, toolsInFixedOrder } from './request-fitting';
import type { SessionContextSource } from './session-context';
import { groupDigits } from '../../shared/digit-groups';

export interface CompactResult {
  readonly ok: boolean;
  /** For the person: what was summarised, or why nothing was. */
  readonly message: string;
}

export interface CompactRequest {
  readonly runId: string;
  readonly signal: AbortSignal;
  readonly provider: ChatProvider;
  readonly registry: ToolRegistry;
  readonly context: SessionContextSource;
  readonly history: () => readonly ChatMessage[];
  readonly emit: (event: RunEvent) => void;
}

/** Never rejects: every failure is a message. */
export async function compactOnRequest(request: CompactRequest): Promise<CompactResult> {
  try {
    const context = await request.context.get();
    await context.counting.exact();
    const systemPrompt = await request.context.systemPrompt(request.runId, request.emit);
    const deps = {
      provider: request.provider,
      systemPrompt,
      tools: toolsInFixedOrder(request.registry.definitions()),
      context,
      history: request.history,
      emit: request.emit,
    };
    const limits = limitsFor(deps);
    const plan = context.conversation.cutNow(request.history(), limits);
    if (plan?.kind !== 'compact') {
      return {
        ok: false,
        message: 'Nothing to compact yet: the conversation holds only its latest turns.',
      };
    }
    const outcome = await compact(deps, request.runId, 'person', request.signal, plan, limits);
    switch (outcome.kind) {
      case 'done':
        return {
          ok: true,
          message: `The earlier conversation (${groupDigits(outcome.replacedMessages)} messages) is summarised; the transcript keeps it all.`,
        };
      case 'stopped':
        return { ok: false, message: 'Compaction stopped.' };
      case 'failed':
        return { ok: false, message: outcome.message };
    }
  } catch (error) {
    return {
      ok: false,
      message: `Could not compact: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
