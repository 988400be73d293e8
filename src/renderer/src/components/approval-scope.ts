// What each answer on a card covers, in words, before it is clicked (issue 13 item 4): "any
// `write_file` call in this session", "`npm test` exactly in this project". Built from the
// rules main said the answer would store (`storable`), so no button allows more than it says.
import type { Choice } from './approval-shortcuts';

/** "any `write_file` call", "`npm test` exactly", joined with "and"; null when nothing is stored. */
export function coveredBy(storable: readonly string[]): string | null {
  if (storable.length === 0) return null;
  const phrases = storable.map((rule) => {
    const tool = /^tool (`[^`]+`)$/.exec(rule);
    return tool ? `any ${tool[1]} call` : rule;
  });
  return phrases.length === 1
    ? (phrases[0] as string)
    : `${phrases.slice(0, -1).join(', ')} and ${phrases.at(-1) as string}`;
}

/**
 * The scope line under one answer's button, with commands in backticks (drawn as code); null
 * when a transcript from before cards said so does not tell.
 */
export function scopeOf(
  choice: Choice,
  storable: readonly string[] | undefined,
  minutes: number,
): string | null {
  switch (choice) {
    case 'allow-once':
      return 'this call only';
    case 'deny':
      return 'this call does not run';
    case 'note':
      return 'and tell the agent why';
    case 'edit':
      return 'change it, then allow your version once';
    case 'allow-session':
    case 'allow-for':
    case 'always': {
      if (storable === undefined) return null;
      const covered = coveredBy(storable);
      // Nothing here can be stored as a rule: the wider answers allow this call only.
      if (covered === null) return 'this call only (nothing here can be stored)';
      switch (choice) {
        case 'allow-session':
          return `${covered} in this session`;
        case 'allow-for':
          return `${covered} for ${minutes} minutes`;
        case 'always':
          return `${covered} in this project`;
      }
    }
  }
}
