// Tells text from binary and decodes text, saying plainly what was wrong with the bytes.
export type Decoded =
  | { readonly kind: 'text'; readonly text: string; readonly note?: string }
  | { readonly kind: 'binary'; readonly description: string };

const MAGIC: readonly [number[], string][] = [
  [[0x89, 0x50, 0x4e, 0x47], 'PNG image'],
  [[0xff, 0xd8, 0xff], 'JPEG image'],
  [[0x47, 0x49, 0x46, 0x38], 'GIF image'],
  [[0x25, 0x50, 0x44, 0x46], 'PDF document'],
  [[0x50, 0x4b, 0x03, 0x04], 'ZIP archive (or docx/xlsx/jar)'],
  [[0x1f, 0x8b], 'gzip archive'],
  [[0x7f, 0x45, 0x4c, 0x46], 'ELF executable'],
  [[0x00, 0x61, 0x73, 0x6d], 'WebAssembly module'],
  [[0x53, 0x51, 0x4c, 0x69, 0x74, 0x65], 'SQLite database'],
];

export function decodeFile(bytes: Uint8Array): Decoded {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    return {
      kind: 'text',
      text: new TextDecoder('utf-16le').decode(bytes.subarray(2)),
      note: 'UTF-16LE file',
    };
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    return {
      kind: 'text',
      text: new TextDecoder('utf-16be').decode(bytes.subarray(2)),
      note: 'UTF-16BE file',
    };
  }
  const binary = sniffBinary(bytes);
  if (binary) {
    return { kind: 'binary', description: `binary file (${binary}), ${bytes.length} bytes` };
  }
  const hasBom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = hasBom ? bytes.subarray(3) : bytes;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    return hasBom ? { kind: 'text', text, note: 'UTF-8 with BOM' } : { kind: 'text', text };
  } catch {
    const text = new TextDecoder('utf-8').decode(body);
    const bad = replacementCount(text);
    if (looksBinary(text)) {
      return { kind: 'binary', description: `binary or non-UTF-8 file, ${bytes.length} bytes` };
    }
    return {
      kind: 'text',
      text,
      note: `not valid UTF-8: ${bad} invalid byte sequence(s) shown as \uFFFD (the file may use another encoding such as Latin-1)`,
    };
  }
}

/** The format when the first bytes show a binary file (a known magic number or a NUL byte). */
export function sniffBinary(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return undefined; // UTF-16 text
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return undefined;
  const kind = MAGIC.find(([magic]) => magic.every((byte, i) => bytes[i] === byte));
  if (kind) return kind[1];
  return bytes.subarray(0, 8000).includes(0) ? 'unknown format' : undefined;
}

/** Text decoded leniently is treated as binary when over a tenth of it is U+FFFD. */
export function looksBinary(text: string): boolean {
  return text.includes('\uFFFD') && replacementCount(text) > text.length / 10;
}

function replacementCount(text: string): number {
  return text.split('\uFFFD').length - 1;
}
