// Expands the wildcards of a word the way bash does by default (no dotglob, no nullglob, no
// globstar, no extglob), so that Tandem, not bash, decides which file names a command gets: the
// matches become ordinary words of the command line that is judged and then run, quoted.
// Only `*` and `?` are expanded; a word with an unquoted `[` asks instead (bracket expressions,
// with `[!…]`, classes, equivalence classes and collating symbols, are not worth a second
// implementation that could disagree with bash's).
import { lstatSync, readdirSync, statSync } from 'node:fs';
import type { WordValue } from './command-words';

/** At most this many matches per word; more asks (the card could not show them anyway). */
export const MAX_MATCHES = 1000;

export type Expansion =
  | { readonly kind: 'literal'; readonly words: readonly [string] }
  | { readonly kind: 'expanded'; readonly words: readonly string[] }
  | { readonly kind: 'ask'; readonly reason: string };

/** Whether an unquoted character of the word makes bash expand it as a file name pattern. */
export function isPattern(word: WordValue): boolean {
  return [...word.text].some((ch, i) => !word.quoted[i] && (ch === '*' || ch === '?'));
}

function hasUnquoted(word: WordValue, ch: string): boolean {
  return [...word.text].some((c, i) => c === ch && !word.quoted[i]);
}

interface Segment {
  readonly text: string;
  readonly quoted: readonly boolean[];
}

/** Splits a word at `/` into path segments, keeping the quoting of each character. */
function segments(word: WordValue): Segment[] {
  const chars = [...word.text];
  const out: Segment[] = [];
  let text = '';
  let quoted: boolean[] = [];
  chars.forEach((ch, i) => {
    if (ch === '/') {
      out.push({ text, quoted });
      text = '';
      quoted = [];
    } else {
      text += ch;
      quoted.push(word.quoted[i] ?? false);
    }
  });
  out.push({ text, quoted });
  return out;
}

function escapeRegExp(ch: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(ch) ? `\\${ch}` : ch;
}

/** A segment as a whole-name matcher; bash's rule that only a literal `.` matches a leading dot. */
function matcher(segment: Segment): (name: string) => boolean {
  let source = '';
  [...segment.text].forEach((ch, i) => {
    const wild = !segment.quoted[i];
    if (wild && ch === '*') source += '[^/]*';
    else if (wild && ch === '?') source += '[^/]';
    else source += escapeRegExp(ch);
  });
  const pattern = new RegExp(`^${source}$`, 'su');
  const dotAllowed = segment.text.startsWith('.');
  return (name) =>
    name !== '.' && name !== '..' && (dotAllowed || !name.startsWith('.')) && pattern.test(name);
}

function isSegmentPattern(segment: Segment): boolean {
  return isPattern({ text: segment.text, quoted: segment.quoted });
}

/** Whether bash keeps a candidate: it exists (a dangling link counts), and `x/` needs a folder. */
function exists(file: string): boolean {
  try {
    if (file.endsWith('/')) statSync(file);
    else lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

function listNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return []; // not a folder, or unreadable: bash matches nothing there either
  }
}

/**
 * The words the word becomes from `base` (the folder the command runs in). Matches keep the
 * word's own form (`src/*.ts` → `src/a.ts`); no match leaves the word as it is, as bash does.
 */
export function expandWord(word: WordValue, base: string): Expansion {
  if (hasUnquoted(word, '[')) {
    return { kind: 'ask', reason: `a [ ] wildcard is not expanded in advance: ${word.text}` };
  }
  if (!isPattern(word)) return { kind: 'literal', words: [word.text] };
  const absolute = word.text.startsWith('/');
  const fileOf = (shown: string): string => (absolute ? shown || '/' : `${base}/${shown}`);
  // Each candidate is the text bash would put in the command line (`src/a.ts`).
  let current: string[] = [''];
  let index = 0;
  for (const segment of segments(word)) {
    const join = (shown: string, name: string): string => (index === 0 ? name : `${shown}/${name}`);
    if (!isSegmentPattern(segment)) {
      current = current.map((shown) => join(shown, segment.text));
    } else {
      const matches = matcher(segment);
      const next: string[] = [];
      for (const shown of current) {
        for (const name of listNames(fileOf(shown)).filter(matches).sort()) {
          next.push(join(shown, name));
        }
        if (next.length > MAX_MATCHES) {
          return {
            kind: 'ask',
            reason: `a wildcard matches more than ${MAX_MATCHES} files: ${word.text}`,
          };
        }
      }
      current = next;
    }
    index++;
  }
  const found = current.filter((shown) => exists(fileOf(shown)));
  if (found.length === 0) return { kind: 'literal', words: [word.text] };
  return { kind: 'expanded', words: found };
}
