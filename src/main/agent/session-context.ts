// Sets up a session's context once, when its first run starts: the model's window (asked of the
// provider's model list at most once), the tokenizer or the byte estimate (the tokenizer handed
// over to after the first request when it is still to load: tokenizer-handover.ts), the fitted
// conversation (continuing a reopened session's compaction) and the usage so far. Also builds the
// system prompt for each run, reporting the project's instructions when they are first sent or
// have changed.
import type { RunEvent } from '../../shared/events';
import type { ModelPrices } from '../../shared/model-settings';
import { ConversationContext, type Compaction } from './context';
import { resolveModelWindow } from './model-window';
import { loadProjectInstructions, MAX_INSTRUCTION_CHARS } from './project-instructions';
import type { ChatProvider } from './provider';
import type { SessionContext } from './request-fitting';
import { buildSystemPrompt } from './system-prompt';
import { sessionCounter } from './tokenizer-handover';
import type { ModelWindow } from './model-window';
import { UsageMeter } from './usage-meter';

/** What the system prompt is made of; `fixed` replaces it whole (tests, embedders). */
export interface PromptSource {
  readonly folder: string;
  readonly platform: string;
  readonly toolNames: () => readonly string[];
  readonly date: string;
  readonly fixed?: string;
}

export interface SessionContextOptions {
  readonly provider: ChatProvider;
  readonly contextTokens?: number;
  readonly prices?: ModelPrices;
  readonly pastEvents: readonly RunEvent[];
  readonly compaction?: Compaction;
  readonly prompt: PromptSource;
}

export interface SessionContextSource {
  get(): Promise<SessionContext>;
  /** This run's system prompt; emits `instructions-loaded` when the instructions are new. */
  systemPrompt(runId: string, emit: (event: RunEvent) => void): Promise<string>;
}

export function createSessionContext(options: SessionContextOptions): SessionContextSource {
  let setup: Promise<SessionContext> | undefined;
  let reported: string | undefined;
  let prompt: string | undefined;

  async function create(): Promise<SessionContext> {
    const { provider } = options;
    const window = await resolveModelWindow({
      model: provider.model,
      ...(options.contextTokens !== undefined ? { contextTokens: options.contextTokens } : {}),
      ...(provider.describeModel ? { describe: () => provider.describeModel!() } : {}),
    });
    const { counter, counting } = sessionCounter(window);
    const conversation = new ConversationContext(counter);
    if (options.compaction) conversation.compacted(options.compaction);
    return {
      window,
      counter,
      counting,
      conversation,
      meter: new UsageMeter(options.prices, options.pastEvents),
    };
  }

  const get = (): Promise<SessionContext> => {
    if (!setup) {
      setup = create();
      // A setup that failed is tried again by the next run.
      setup.catch(() => (setup = undefined));
    }
    return setup;
  };

  return {
    get,
    async systemPrompt(runId, emit) {
      const source = options.prompt;
      if (source.fixed !== undefined) return source.fixed;
      const { window } = await get();
      const instructions = await loadProjectInstructions(source.folder, instructionChars(window));
      const key = instructions
        ? `${instructions.file}\n${instructions.note ?? ''}\n${instructions.text}`
        : '';
      if (instructions && key !== reported) {
        emit({
          type: 'instructions-loaded',
          runId,
          file: instructions.file,
          chars: instructions.text.length,
          ...(instructions.note ? { note: instructions.note } : {}),
        });
      }
      reported = key;
      const next = buildSystemPrompt({
        folder: source.folder,
        platform: source.platform,
        toolNames: source.toolNames(),
        date: source.date,
        ...(instructions ? { instructions } : {}),
      });
      // The same string object while nothing changed: its count stays cached.
      if (next !== prompt) prompt = next;
      return prompt;
    },
  };
}

/** At most a tenth of the window (at about 3.5 characters a token), and never past the cap. */
function instructionChars(window: ModelWindow): number {
  return Math.max(2000, Math.min(MAX_INSTRUCTION_CHARS, Math.floor(window.contextTokens * 0.35)));
}
