// Expands a shell wildcard word against the real file system, the way bash would (a superset:
// dot files and other letter cases match too, and any `*?[` counts as a wildcard even where it was quoted), so every file
// the word could name can be checked. Bounded: a word that could name too many files, or `**`
// (recursive with globstar), is reported as unknown.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';

const LIMIT = 2000;
const WILDCARD = /[*?[]/;

/** Whether a literal word value contains a character bash treats as a wildcard. */
export function hasWildcard(word: string): boolean {
  return WILDCARD.test(word);
}

/** Absolute paths the word may expand to from `base`, or undefined when it cannot tell. */
export function globMatches(base: string, word: string): string[] | undefined {
  if (word.includes('**')) return undefined;
  const absolute = path.isAbsolute(word);
  const segments = word.split('/').filter((segment) => segment !== '');
  let current = [absolute ? '/' : base];
  for (const segment of segments) {
    const next: string[] = [];
    if (!hasWildcard(segment)) {
      for (const dir of current) next.push(path.join(dir, segment));
    } else {
      // A superset of what bash matches, whatever dotglob and nocaseglob are set to.
      const matches = picomatch(segment, { dot: true, nocase: true });
      for (const dir of current) {
        let names: string[];
        try {
          names = readdirSync(dir);
        } catch {
          continue; // not a folder, or unreadable: bash matches nothing there either
        }
        // bash before 5.2 (macOS /bin/bash) lets `.*` match `.` and `..` too, so `.*/x` may
        // climb out of the folder; any pattern that could start with a dot counts them.
        if (/^[.?[]/.test(segment)) names.push('.', '..');
        for (const name of names) if (matches(name)) next.push(path.join(dir, name));
        if (next.length > LIMIT) return undefined;
      }
    }
    current = next;
  }
  return current;
}
