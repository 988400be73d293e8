// The sandbox `tandem run`'s header names, probed once the first model request is out. The probe
// is a bwrap run, and starting it (a fork of this process) takes milliseconds of the main thread
// that the request would otherwise wait for; the session's warm-up probes at that moment anyway
// (session-warm-up.ts), and the probe is cached, so it runs once. The header waits for it, and
// the run's output for the header (held-output.ts).
import type { SandboxState } from '../shared/tool-types';
import { afterNextRequestSent } from '../main/agent/request-sent';
import { probeSandbox } from '../main/shell/sandbox-probe';

/**
 * How long the header waits for the first request to go out before the probe starts anyway: a
 * provider slow to accept the connection, or a request that failed before it was sent and is
 * retried, does not keep the header (and what follows it) back longer than this.
 */
export const HEADER_PROBE_WAIT_MS = 250;

export interface HeaderSandbox {
  /** The probe's answer, once it has been started and has run. */
  readonly sandbox: Promise<SandboxState>;
  /** Starts the probe now if it has not started (the run ended before any request went out). */
  probeNow(): void;
}

export function sandboxAfterFirstRequest(
  probe: () => Promise<SandboxState> = probeSandbox,
  waitMs: number = HEADER_PROBE_WAIT_MS,
): HeaderSandbox {
  let start: (() => void) | undefined;
  const sandbox = new Promise<SandboxState>((resolve, reject) => {
    start = () => probe().then(resolve, reject);
  });
  const probeNow = (): void => {
    const starting = start;
    if (!starting) return;
    start = undefined;
    clearTimeout(timer);
    stopListening();
    starting();
  };
  const timer = setTimeout(probeNow, waitMs);
  // An idle timer: the process may end (a failed setup) without waiting for it.
  timer.unref();
  const stopListening = afterNextRequestSent(probeNow);
  return { sandbox, probeNow };
}
