// Reading a file a write tool is about to change: text only, and only if it round-trips exactly.
import { readFile } from 'node:fs/promises';
import { ToolError } from '../tool';

/** Current text of `path`, undefined when it does not exist; refuses binary or non-UTF-8 files. */
export async function readTextForEdit(path: string, relative: string): Promise<string | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'EISDIR') throw new ToolError(`${relative} is a folder, not a file.`);
    throw error;
  }
  if (bytes.subarray(0, 8000).includes(0)) {
    throw new ToolError(`${relative} looks binary; it cannot be edited as text.`);
  }
  const text = bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes)) {
    throw new ToolError(`${relative} is not valid UTF-8; editing it as text would corrupt it.`);
  }
  return text;
}
