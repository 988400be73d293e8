// Control characters in text a person gave (titles, API keys): C0 controls and DEL, which can end
// a header line, a terminal line or a file line early. One rule for the window's IPC schemas and
// the command line.

export function hasControlCharacters(s: string): boolean {
  for (let i = 0; i < s.length; i++)
    if (s.charCodeAt(i) < 0x20 || s.charCodeAt(i) === 0x7f) return true;
  return false;
}

/** Whether a (trimmed) API key can go in a header as it is: no whitespace, no control character. */
export function isSendableApiKey(key: string): boolean {
  return !/\s/.test(key) && !hasControlCharacters(key);
}
