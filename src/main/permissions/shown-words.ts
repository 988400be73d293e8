// Command words as the person reads them in rules, cards and reasons: plain words as they are,
// anything else single-quoted the way a shell would read it back.

export function quoteWord(word: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `rm build`, in backticks. */
export function showWords(words: readonly string[]): string {
  return `\`${words.map(quoteWord).join(' ')}\``;
}

/** `npm test *`: the words, then a star for "any further words" (a literal `*` word is quoted). */
export function showPattern(words: readonly string[]): string {
  return `\`${[...words.map(quoteWord), '*'].join(' ')}\``;
}
