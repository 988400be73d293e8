// A seeded source of choices for generated tests: the same seed gives the same run everywhere.

/** mulberry32: small, fast and the same on every machine for a given seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Generator {
  readonly rand: () => number;
  pick<T>(items: readonly T[]): T;
  int(min: number, max: number): number;
  chance(p: number): boolean;
}

export function generator(seed: number): Generator {
  const rand = seededRandom(seed);
  return {
    rand,
    pick: (items) => items[Math.floor(rand() * items.length)] as (typeof items)[number],
    int: (min, max) => min + Math.floor(rand() * (max - min + 1)),
    chance: (p) => rand() < p,
  };
}

export function pickWeighted<T>(g: Generator, table: readonly [T, number][]): T {
  const total = table.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = g.rand() * total;
  for (const [item, weight] of table) {
    roll -= weight;
    if (roll < 0) return item;
  }
  return (table.at(-1) as [T, number])[0];
}
