// Where a Tandem turn of the rig goes, from its JSON RunEvents and the server's request arrivals:
// per call, request arrival → tool-call-started → permission-decided → tool-result → the next
// request's arrival, with the tool's own durationMs. Event times are when the bench read each line.
import { median } from './percentiles';

/** ms: request → call started, → decided (gate), → result, the tool's durationMs, → next request. */
export type Phases = [number, number, number, number, number];

export interface TimedEvent {
  readonly at: number;
  readonly event: Record<string, unknown>;
}

/** Collects JSON lines written in pieces, each stamped when its end arrived. */
export function jsonLineCollector(): { write(text: string): void; events: TimedEvent[] } {
  const events: TimedEvent[] = [];
  let pending = '';
  return {
    events,
    write(text) {
      pending += text;
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      const at = performance.now();
      for (const line of parts) events.push({ at, event: JSON.parse(line) });
    },
  };
}

/** The phases of every call, by tool name; throws when a call failed (the bench would lie). */
export function phasesByTool(
  events: readonly TimedEvent[],
  arrivals: readonly number[],
): Map<string, Phases[]> {
  const seen = new Map<string, { name: string; at: number[]; durationMs: number }>();
  for (const { at, event } of events) {
    const callId = String(event.callId);
    if (event.type === 'tool-call-started')
      seen.set(callId, { name: String(event.name), at: [at], durationMs: NaN });
    const call = seen.get(callId);
    if (event.type === 'permission-decided' && call) call.at[1] = at;
    if (event.type !== 'tool-result' || !call) continue;
    if (event.ok !== true) throw new Error(`a call failed: ${String(event.output)}`);
    call.at[2] = at;
    call.durationMs = Number(event.durationMs);
  }
  const tools = new Map<string, Phases[]>();
  for (const [callId, call] of seen) {
    const turn = Number(callId.replace('call_', ''));
    const [started = NaN, decided = NaN, result = NaN] = call.at;
    const phases: Phases = [
      started - (arrivals[turn] ?? NaN),
      decided - started,
      result - decided,
      call.durationMs,
      (arrivals[turn + 1] ?? NaN) - result,
    ];
    tools.set(call.name, [...(tools.get(call.name) ?? []), phases]);
  }
  return tools;
}

const ms = (value: number): string => `${value.toFixed(1)} ms`;

/** Medians per tool over every run given. */
export function printPhases(label: string, runs: readonly Map<string, Phases[]>[]): void {
  console.log(
    `${label} per tool, medians: request→call started | →decided (gate) | →result (durationMs) | result→next request`,
  );
  const names = new Set(runs.flatMap((tools) => [...tools.keys()]));
  for (const name of [...names].sort()) {
    const all = runs.flatMap((tools) => tools.get(name) ?? []);
    const at = (i: number): string => ms(median(all.map((p) => p[i] as number)));
    console.log(
      `  ${name.padEnd(11)} ${at(0)} | ${at(1)} | ${at(2)} (${at(3)}) | ${at(4)}  (${all.length} calls)`,
    );
  }
}
