// Limits on a call's arguments, checked on the raw text before anything parses, copies or writes
// them: a model can send megabytes, or arrays nested thousands deep that make every recursive
// walk (JSON.stringify, a preview, a hash) throw "Maximum call stack size exceeded".

export const MAX_ARGUMENT_BYTES = 1024 * 1024;
export const MAX_ARGUMENT_DEPTH = 64;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * How deep the JSON text nests arrays and objects, counted in one pass without parsing; stops
 * counting once past `limit` (the text may still be invalid JSON: the parser says so later).
 */
export function textNestingDepth(text: string, limit: number = MAX_ARGUMENT_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
      continue;
    }
    if (code === QUOTE) inString = true;
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth--;
  }
  return deepest;
}

export type ArgumentBoundsProblem =
  | { readonly kind: 'size'; readonly bytes: number; readonly limit: number }
  | { readonly kind: 'depth'; readonly limit: number };

export function checkArgumentText(
  text: string,
  maxBytes: number = MAX_ARGUMENT_BYTES,
  maxDepth: number = MAX_ARGUMENT_DEPTH,
): ArgumentBoundsProblem | undefined {
  // UTF-8 is at most 3 bytes per UTF-16 unit: a short text skips the exact count.
  if (text.length * 3 > maxBytes) {
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > maxBytes) return { kind: 'size', bytes, limit: maxBytes };
  }
  if (textNestingDepth(text, maxDepth) > maxDepth) return { kind: 'depth', limit: maxDepth };
  return undefined;
}

export function describeBoundsProblem(toolName: string, problem: ArgumentBoundsProblem): string {
  switch (problem.kind) {
    case 'size':
      return (
        `Error: the arguments for ${toolName} are ${problem.bytes.toLocaleString('en-US')} bytes; ` +
        `the limit is ${problem.limit.toLocaleString('en-US')}. Send less at once ` +
        '(for a big file, write it in parts or edit only what changes).'
      );
    case 'depth':
      return (
        `Error: the arguments for ${toolName} nest deeper than ${problem.limit} levels; ` +
        'send flatter arguments.'
      );
  }
}

/** What the trace shows for arguments that were refused unread: their start, and their size. */
export function refusedArgumentsPreview(text: string): string {
  const head = text.slice(0, 200);
  return text.length > head.length
    ? `${head}… (${text.length.toLocaleString('en-US')} characters)`
    : head;
}

/**
 * The arguments as the conversation keeps them: text over the size limit was refused unread, and
 * sending it back on every later request would only fill the context, so a short valid JSON note
 * stands in for it (the call's answer says what happened).
 */
export function argumentsForHistory(text: string, maxBytes: number = MAX_ARGUMENT_BYTES): string {
  if (text.length * 3 <= maxBytes) return text;
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= maxBytes) return text;
  return JSON.stringify({
    omitted: `${bytes.toLocaleString('en-US')} bytes of arguments, over the limit of ${maxBytes.toLocaleString('en-US')}; not kept`,
  });
}
