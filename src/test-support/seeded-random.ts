// A seeded source of choices for generated tests: the same seed gives the same cases on every
// machine, so a failure names its seed and can be run again.

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** An integer in [min, max], both included. */
  between(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** True with probability p. */
  chance(p: number): boolean;
}

/** mulberry32: small, fast and good enough to spread test cases. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return {
    next,
    int,
    between: (min, max) => min + int(max - min + 1),
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[int(items.length)] as T;
    },
    chance: (p) => next() < p,
  };
}

/** One item of a weighted table, chosen in proportion to its weight. */
export function pickWeighted<T>(random: Random, table: readonly [T, number][]): T {
  const total = table.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random.next() * total;
  for (const [item, weight] of table) {
    roll -= weight;
    if (roll < 0) return item;
  }
  return (table.at(-1) as [T, number])[0];
}

/** The seed for a generated suite: TANDEM_SEED when set (to replay a failure), else a fixed one. */
export function suiteSeed(fallback: number): number {
  const given = Number(process.env.TANDEM_SEED);
  return Number.isInteger(given) && given > 0 ? given : fallback;
}
