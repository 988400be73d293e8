// The project's own instructions for agents: AGENTS.md at the folder's root, else CLAUDE.md, else
// .github/copilot-instructions.md. They go to the provider with every request, so they are read
// as the file tools read (through the path guard, a symlink out is not followed, the descriptor
// verified) and bounded.
import { guardPath } from '../workspace/path-guard';
import { readFileVerified } from '../workspace/verified-fs';

export const INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md', '.github/copilot-instructions.md'];
/** At most this much is sent (about 5,000 tokens); small windows get less (see the caller). */
export const MAX_INSTRUCTION_CHARS = 20_000;
const MAX_INSTRUCTION_BYTES = 1024 * 1024;

export interface ProjectInstructions {
  /** Relative to the project folder. */
  readonly file: string;
  /** What is sent; empty when the file could not be used (see `note`). */
  readonly text: string;
  /** What was cut, or why nothing is sent. */
  readonly note?: string;
}

/** The first instruction file there is, bounded to `maxChars`; undefined when there is none. */
export async function loadProjectInstructions(
  folder: string,
  maxChars: number = MAX_INSTRUCTION_CHARS,
): Promise<ProjectInstructions | undefined> {
  for (const file of INSTRUCTION_FILES) {
    const found = await readInstructions(folder, file, maxChars);
    if (found) return found;
  }
  return undefined;
}

async function readInstructions(
  folder: string,
  file: string,
  maxChars: number,
): Promise<ProjectInstructions | undefined> {
  try {
    const guard = await guardPath(folder, file, 'read');
    if (!guard.ok) return undefined;
    const read = await readFileVerified(guard.root, guard.path, {
      maxBytes: MAX_INSTRUCTION_BYTES,
    });
    if (read.kind === 'too-large') {
      return {
        file,
        text: '',
        note: `${file} is ${(read.size / 1024 / 1024).toFixed(1)} MB, more than the 1 MB Tandem reads; not sent`,
      };
    }
    if (read.kind !== 'file') return undefined;
    const text = read.bytes
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim();
    if (text === '') return undefined;
    if (text.length <= maxChars) return { file, text };
    const cut = `cut at ${maxChars.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters`;
    return { file, text: `${text.slice(0, maxChars)}\n[… ${file} ${cut} …]`, note: cut };
  } catch {
    // Unreadable (permissions, a race with a rename): as if it were not there.
    return undefined;
  }
}
