// Reading a file a write tool is about to change: text only, and only if it round-trips exactly.
import { readFileVerified } from '../../workspace/verified-fs';
import { ToolError } from '../tool';
import { verified, type GuardedPath } from './guarded-path';

/** Current text of the file, undefined when it does not exist; refuses binary or non-UTF-8 files. */
export async function readTextForEdit(file: GuardedPath): Promise<string | undefined> {
  const { relative } = file;
  const read = await verified(() => readFileVerified(file.root, file.path));
  switch (read.kind) {
    case 'missing':
      return undefined;
    case 'folder':
      throw new ToolError(`${relative} is a folder, not a file.`);
    case 'symlink':
    case 'other':
    case 'too-large':
      throw new ToolError(`${relative} is not a regular file that can be edited as text.`);
    case 'file':
      break;
  }
  const bytes = read.bytes;
  if (bytes.subarray(0, 8000).includes(0)) {
    throw new ToolError(`${relative} looks binary; it cannot be edited as text.`);
  }
  const text = bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes)) {
    throw new ToolError(`${relative} is not valid UTF-8; editing it as text would corrupt it.`);
  }
  return text;
}
