// Finds well-known secret shapes in tool output and masks them for the model (issue 10). The one
// place this runs is where a tool result becomes the tool message (tool-calls.ts): the model and
// the transcript's messages get the masked text, the trace event also keeps the text as it was so
// the person can reveal it in the window. Matching uses RE2 (re2js), linear in the input.
import { RE2JS } from 're2js';
import type { SecretMark } from '../../shared/tool-types';
import { SECRET_PATTERNS, valueAfter, type SecretPattern } from './secret-patterns';

export interface SecretMatch {
  readonly start: number;
  readonly end: number;
  readonly patternId: string;
  readonly label: string;
}

export interface MaskedText {
  /** The text with each secret replaced by "[secret masked: <label>, N chars]". */
  readonly masked: string;
  /** What was masked, in order of appearance. */
  readonly secrets: readonly SecretMark[];
}

interface Compiled {
  readonly pattern: SecretPattern;
  readonly regex: RE2JS;
  readonly groupCount: number;
}

const compiled = new Map<SecretPattern, Compiled>();

/**
 * One pattern, compiled on first use (a pattern RE2 cannot compile is a programming error,
 * thrown). findSecrets compiles only the patterns whose hints a text holds: compiling all 30 is
 * 40-70 ms of CPU, and most outputs (listings, code, `ok`) never need the costly ones
 * (private keys, tokens with long alternations).
 */
function compiledFor(pattern: SecretPattern): Compiled {
  let entry = compiled.get(pattern);
  if (!entry) {
    const regex = RE2JS.compile(pattern.source);
    entry = { pattern, regex, groupCount: regex.groupCount() };
    compiled.set(pattern, entry);
  }
  return entry;
}

/** Every pattern, compiled (tests check each one's behaviour on hostile input). */
export function compiledPatterns(): readonly Compiled[] {
  return SECRET_PATTERNS.map(compiledFor);
}

/** Every secret in `text`, overlaps resolved (earliest first, then longest), in order. */
export function findSecrets(text: string): SecretMatch[] {
  if (text.length === 0) return [];
  const lower = text.toLowerCase();
  const found: SecretMatch[] = [];
  for (const pattern of SECRET_PATTERNS) {
    if (!pattern.hints.some((hint) => lower.includes(hint))) continue;
    const { regex, groupCount } = compiledFor(pattern);
    for (const [base, chunk] of regions(pattern, text)) {
      const matcher = regex.matcher(chunk);
      let from = 0;
      while (from <= chunk.length && matcher.find(from)) {
        from = Math.max(matcher.end(), matcher.start() + 1);
        const groups: (string | null)[] = [];
        for (let g = 0; g <= groupCount; g++) groups.push(matcher.group(g));
        const span = secretSpan(pattern, chunk, groups, matcher);
        if (span === undefined) continue;
        const value = chunk.slice(span.start, span.end);
        if (pattern.accept && !pattern.accept(value, groups)) continue;
        let end = span.end;
        if (span.cut) end = valueAfter(chunk, matcher.end(), Infinity)?.end ?? end;
        found.push({
          start: base + span.start,
          end: base + end,
          patternId: pattern.id,
          label: pattern.labelFor ? pattern.labelFor(groups) : pattern.label,
        });
        from = Math.max(from, end);
      }
    }
  }
  return resolveOverlaps(found);
}

/** The text with every secret masked, and what was masked. */
export function maskSecrets(text: string): MaskedText {
  const matches = findSecrets(text);
  if (matches.length === 0) return { masked: text, secrets: [] };
  let masked = '';
  let at = 0;
  for (const match of matches) {
    const chars = match.end - match.start;
    masked += `${text.slice(at, match.start)}[secret masked: ${match.label}, ${chars} chars]`;
    at = match.end;
  }
  masked += text.slice(at);
  return {
    masked,
    secrets: matches.map((m) => ({ kind: m.label, chars: m.end - m.start })),
  };
}

/** What a pattern is run over: the whole text, or (perLine) each line holding one of its hints. */
function* regions(pattern: SecretPattern, text: string): Generator<readonly [number, string]> {
  if (!pattern.perLine) {
    yield [0, text];
    return;
  }
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    // Lower-cased per line: lower-casing can change a string's length ('İ'), never a line's count.
    const line = text.slice(start, end);
    const lowerLine = line.toLowerCase();
    if (pattern.hints.some((hint) => lowerLine.includes(hint))) yield [start, line];
    if (newline === -1) return;
    start = newline + 1;
  }
}

/** Where the secret is: the value after the match, the pattern's group, or the whole match. */
function secretSpan(
  pattern: SecretPattern,
  text: string,
  groups: readonly (string | null)[],
  matcher: { start(group?: number): number; end(group?: number): number },
): { start: number; end: number; cut: boolean } | undefined {
  if (pattern.valueAfter) return valueAfter(text, matcher.end());
  const group = pattern.group ?? 0;
  if (groups[group] === null || groups[group] === undefined || groups[group] === '')
    return undefined;
  return { start: matcher.start(group), end: matcher.end(group), cut: false };
}

function resolveOverlaps(found: SecretMatch[]): SecretMatch[] {
  const order = new Map(SECRET_PATTERNS.map((p, i) => [p.id, i]));
  found.sort(
    (a, b) =>
      a.start - b.start ||
      b.end - a.end ||
      (order.get(a.patternId) ?? 0) - (order.get(b.patternId) ?? 0),
  );
  const kept: SecretMatch[] = [];
  let end = -1;
  for (const match of found) {
    if (match.start < end) continue;
    kept.push(match);
    end = match.end;
  }
  return kept;
}
