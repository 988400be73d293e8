// Time limits of one model request, so a provider that goes quiet cannot hang a run: one to start
// answering (connect), one between useful chunks (idle; SSE keep-alive comments do not count),
// and one for the whole request. When one fires the request is aborted and the error names it.
import {
  DEFAULT_TIMEOUT_SETTINGS,
  type ProviderTimeoutSettings,
} from '../../shared/provider-timeouts';
import { durationText } from '../../shared/duration-text';

export interface ProviderTimeouts {
  /** From sending the request until the response starts (headers): covers connect and queueing. */
  readonly connectMs: number;
  /** Longest wait between useful chunks once the response has started. */
  readonly idleMs: number;
  /** The whole request, first byte to last. */
  readonly requestMs: number;
}

/** The limits in milliseconds, from the person's settings in seconds. */
export function timeoutsFromSettings(settings: ProviderTimeoutSettings): ProviderTimeouts {
  return {
    connectMs: settings.connectSeconds * 1000,
    idleMs: settings.idleSeconds * 1000,
    requestMs: settings.requestSeconds * 1000,
  };
}

export const DEFAULT_PROVIDER_TIMEOUTS: ProviderTimeouts =
  timeoutsFromSettings(DEFAULT_TIMEOUT_SETTINGS);

export type TimeoutKind = 'connect' | 'idle' | 'request';

export class RequestWatchdog {
  private readonly controller = new AbortController();
  private readonly timers = new Map<TimeoutKind, ReturnType<typeof setTimeout>>();
  private firedKind: TimeoutKind | undefined;
  private readonly forward = (): void => this.controller.abort(this.outer.reason);

  constructor(
    private readonly timeouts: ProviderTimeouts,
    private readonly outer: AbortSignal,
  ) {
    if (outer.aborted) this.controller.abort(outer.reason);
    else outer.addEventListener('abort', this.forward, { once: true });
    this.arm('connect', timeouts.connectMs);
    this.arm('request', timeouts.requestMs);
  }

  /** Aborts when the person stops the run or when a limit fires. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Which limit ended the request, if one did. */
  get fired(): TimeoutKind | undefined {
    return this.firedKind;
  }

  /** The response has started: the connect limit is done, the idle limit begins. */
  responded(): void {
    this.clear('connect');
    this.arm('idle', this.timeouts.idleMs);
  }

  /** A useful chunk arrived (text, a tool-call piece, reasoning, a finish reason, usage). */
  progressed(): void {
    if (this.timers.has('idle')) this.arm('idle', this.timeouts.idleMs);
  }

  dispose(): void {
    for (const kind of [...this.timers.keys()]) this.clear(kind);
    this.outer.removeEventListener('abort', this.forward);
  }

  /** A sentence for the person: which limit fired and where to change it. */
  describe(kind: TimeoutKind): string {
    switch (kind) {
      case 'connect':
        return `the provider did not start answering within ${durationText(this.timeouts.connectMs)} (the connect timeout; change it in Settings or with --connect-timeout)`;
      case 'idle':
        return `the provider went quiet: nothing new for ${durationText(this.timeouts.idleMs)} (the idle timeout; keep-alive messages do not count; change it in Settings or with --idle-timeout)`;
      case 'request':
        return `the provider's answer took longer than ${durationText(this.timeouts.requestMs)} in all (the request time limit; change it in Settings or with --request-timeout)`;
    }
  }

  private arm(kind: TimeoutKind, ms: number): void {
    this.clear(kind);
    const timer = setTimeout(() => {
      this.firedKind ??= kind;
      this.dispose();
      this.controller.abort(new Error(this.describe(kind)));
    }, ms);
    this.timers.set(kind, timer);
  }

  private clear(kind: TimeoutKind): void {
    const timer = this.timers.get(kind);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(kind);
  }
}
