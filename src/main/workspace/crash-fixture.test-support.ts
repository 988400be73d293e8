// Shared by the crash suite and the process it kills: a seeded generator and self-checking file
// contents (a torn file fails its own checksum).
import { createHash } from 'node:crypto';

/** mulberry32: a small seeded generator, so a failing seed can be run again. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A file body that says whether it is whole: `#<sha256 of the rest>\n<rest>`. */
export function selfChecked(body: string): string {
  return `#${createHash('sha256').update(body).digest('hex')}\n${body}`;
}

export function isWhole(content: Buffer): boolean {
  const text = content.toString('latin1');
  const cut = text.indexOf('\n');
  if (!text.startsWith('#') || cut !== 65) return false;
  const body = content.subarray(cut + 1);
  return text.slice(1, cut) === createHash('sha256').update(body).digest('hex');
}

/** The paths the worker writes, moves and deletes. */
export const CRASH_NAMES = ['a.txt', 'b.txt', 'dir/c.txt', 'dir/deep/d.txt', 'e.txt', 'new/f.txt'];
