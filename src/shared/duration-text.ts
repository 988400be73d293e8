// A time limit or duration in a message the person or the model reads.

/** `250` → `"250 ms"`, `1500` → `"1.5 s"`, `90000` → `"90 s"`. */
export function durationText(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}
