// What the first command of a session needs, prepared while the first model request is out, so
// the first command costs no more than the others: the sandbox probe (a bwrap run), the command
// classifier and the shell parser (web-tree-sitter and its wasm), the repository checks git
// commands get (rev-parse, config, ls-files), the pty module, the secret masker (re2js) and the
// tool argument validator (ajv). Each is cached where it lives; a command that comes before the
// warm-up is done waits for the same promise instead of starting a second one.
import { loadPty } from '../shell/pty-session';
import { afterNextRequestSent } from './request-sent';
import { probeSandbox } from '../shell/sandbox-probe';
import type { ChatProvider } from './provider';
import { loadSecretMask } from './tool-calls';
import { loadArgumentValidator } from '../tools/registry';

export interface WarmUpSteps {
  readonly probe: () => Promise<unknown>;
  readonly parser: () => Promise<unknown>;
  readonly repository: (folder: string) => Promise<unknown>;
  readonly modules: () => Promise<unknown>;
}

export const REAL_WARM_UP_STEPS: WarmUpSteps = {
  probe: probeSandbox,
  parser: async () => {
    await import('../shell/command-classifier');
    await (await import('../shell/bash-parser')).warmBashParser();
  },
  repository: async (folder) => (await import('../shell/git-toplevel')).gitScopeReason(folder),
  // The masker's module and re2js load here; its patterns compile one by one when a text first
  // holds their hints (secret-mask.ts), a millisecond or two each, not all 30 up front.
  modules: () => Promise.all([loadPty(), loadSecretMask(), loadArgumentValidator()]),
};

/**
 * Runs the steps side by side: the probe and git wait on child processes while the parser
 * compiles, and every step yields to the event loop, so the request's own I/O goes on between
 * them. Never rejects: a step that fails fails again, and is reported, where the command needs it.
 */
export async function warmUpForCommands(
  folder: string,
  steps: WarmUpSteps = REAL_WARM_UP_STEPS,
): Promise<void> {
  const quietly = async (step: () => Promise<unknown>): Promise<void> => {
    try {
      await step();
    } catch {
      // the command that needs it reports it
    }
  };
  await Promise.all([
    quietly(steps.probe),
    quietly(steps.parser),
    quietly(() => steps.repository(folder)),
    quietly(steps.modules),
  ]);
}

/**
 * The provider, with `warmUp` started once: when the first turn's request has been sent, or
 * when that turn ends without one having been seen (a provider that is not HTTP, a request
 * that failed before it was sent).
 */
export function warmingUpOnFirstTurn(provider: ChatProvider, warmUp: () => void): ChatProvider {
  let state: 'waiting' | 'listening' | 'started' = 'waiting';
  let stopListening = (): void => {};
  const start = (): void => {
    if (state === 'started') return;
    state = 'started';
    stopListening();
    // Out of the sender's own call stack: nothing of the warm-up runs inside a write path.
    setImmediate(warmUp);
  };
  return {
    model: provider.model,
    baseUrl: provider.baseUrl,
    streamTurn(request) {
      if (state === 'waiting') {
        state = 'listening';
        stopListening = afterNextRequestSent(start);
      }
      const turn = provider.streamTurn(request);
      // A side branch: the caller still gets the turn's own rejection.
      void turn.then(start, start);
      return turn;
    },
  };
}
