// JSON text of values that may come from the model, for records and displays. JSON.stringify
// recurses, so a value nested some thousands deep throws "Maximum call stack size exceeded"
// wherever it is written; this never throws: deeper parts become a marker, and a value that
// cannot be written at all becomes a marker string. Not for fingerprints: two values that
// differ only below the cut would read the same (approval hashes refuse instead).

/** Deeper than any arguments the registry lets through (64), far below what the stack allows. */
export const SAFE_JSON_MAX_DEPTH = 100;

/** Whether `value` nests more than `limit` arrays/objects deep; iterative, so any depth is safe. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > limit) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

export function safeJsonStringify(
  value: unknown,
  options: { readonly maxDepth?: number; readonly space?: number } = {},
): string {
  const maxDepth = options.maxDepth ?? SAFE_JSON_MAX_DEPTH;
  try {
    if (!nestsDeeperThan(value, maxDepth)) {
      return JSON.stringify(value, null, options.space) ?? 'null';
    }
    // The replacer sees each value with its holder as `this`: depth follows from the holder's.
    const depths = new WeakMap<object, number>();
    const marker = `[… nested deeper than ${maxDepth} levels; not shown …]`;
    const text = JSON.stringify(
      value,
      function (this: unknown, _key: string, item: unknown) {
        if (typeof item !== 'object' || item === null) return item;
        const holderDepth = typeof this === 'object' && this !== null ? (depths.get(this) ?? 0) : 0;
        // The root is wrapped by JSON.stringify in a holder object of depth 0.
        const depth = holderDepth + 1;
        if (depth > maxDepth) return marker;
        depths.set(item, depth);
        return item;
      },
      options.space,
    );
    return text ?? 'null';
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return JSON.stringify(`[… a value that cannot be written as JSON: ${reason} …]`);
  }
}
