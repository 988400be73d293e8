// The pure part of edit_file: find old_text exactly once (or everywhere with replace_all) and
// replace it, keeping the file's line endings.
export type EditOutcome =
  | { readonly ok: true; readonly content: string; readonly replaced: number }
  | { readonly ok: false; readonly message: string };

export function applyEdit(
  content: string,
  oldText: string,
  newText: string,
  replaceAll: boolean,
  name: string,
): EditOutcome {
  if (oldText === '') {
    return {
      ok: false,
      message: 'old_text is empty. To create or overwrite a whole file, use write_file.',
    };
  }
  if (oldText === newText)
    return { ok: false, message: 'old_text and new_text are the same; nothing to change.' };

  // A CRLF file edited with LF text: match and write CRLF, so the endings stay as they were.
  const crlf = content.includes('\r\n') && !oldText.includes('\r');
  const candidates: [string, string][] = crlf
    ? [
        [oldText.replace(/\n/g, '\r\n'), newText.replace(/\r?\n/g, '\r\n')],
        [oldText, newText],
      ]
    : [[oldText, newText]];
  for (const [find, replace] of candidates) {
    const positions = occurrences(content, find);
    if (positions.length === 0) continue;
    if (positions.length > 1 && !replaceAll) {
      const lines = positions.slice(0, 10).map((at) => lineOf(content, at));
      return {
        ok: false,
        message:
          `old_text occurs ${positions.length} times in ${name} (lines ${lines.join(', ')}${positions.length > 10 ? ', …' : ''}). ` +
          'Include more surrounding lines so it matches exactly once, or set replace_all to change every occurrence.',
      };
    }
    return { ok: true, content: content.split(find).join(replace), replaced: positions.length };
  }
  return {
    ok: false,
    message:
      `old_text was not found in ${name} (0 occurrences). It must match exactly, including whitespace and ` +
      'indentation; read the file again and copy the text as it is now.',
  };
}

function occurrences(content: string, find: string): number[] {
  const positions: number[] = [];
  let at = content.indexOf(find);
  while (at !== -1) {
    positions.push(at);
    at = content.indexOf(find, at + find.length);
  }
  return positions;
}

function lineOf(content: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i += 1) if (content.charCodeAt(i) === 10) line += 1;
  return line;
}
