// How a tool names the outside content its output may carry. The text lands on approval cards
// ("the conversation took in outside content after running `curl …` with network on"), so a
// command is shown on one line, shortened, with control and bidi characters made visible.

/** Longest command shown in a taint reason before it is cut with "…". */
export const SHOWN_COMMAND_MAX = 60;

/** C0 and C1 controls, DEL, and the bidi embeddings, overrides, isolates and marks. */
function invisible(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x061c ||
    code === 0x200e ||
    code === 0x200f ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

function visible(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (code === 0x0a) return '\\n';
  if (code === 0x0d) return '\\r';
  if (code === 0x09) return '\\t';
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  return `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/** "after running `curl -s https://x` with network on" for a command that had the network. */
export function commandWithNetworkTaint(command: string): string {
  const shown = [...command.trim()]
    .map((char) => (invisible(char.codePointAt(0) ?? 0) ? visible(char) : char))
    .join('');
  const cut = shown.length > SHOWN_COMMAND_MAX ? `${shown.slice(0, SHOWN_COMMAND_MAX)}…` : shown;
  return `after running \`${cut.replaceAll('`', "'")}\` with network on`;
}
