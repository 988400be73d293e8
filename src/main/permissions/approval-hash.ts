// The fingerprint an approval is bound to: the exact arguments, the working folder and, for
// edits and writes, the target file's content as previewed. Any change means asking again.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { nestsDeeperThan } from '../../shared/safe-json';

export interface ApprovalSubject {
  readonly toolName: string;
  readonly args: unknown;
  readonly folder: string;
  /** Content of the target file when the card was built; null when it did not exist. */
  readonly fileContent?: string | null;
  /** For a command: the content of the project files it names (command-files.ts). */
  readonly namedFiles?: Readonly<Record<string, string>>;
}

export function approvalHash(subject: ApprovalSubject): string {
  const canonical = canonicalJson({
    tool: subject.toolName,
    args: subject.args,
    folder: subject.folder,
    file: subject.fileContent === undefined ? { absent: 'not-a-write' } : subject.fileContent,
    ...(subject.namedFiles !== undefined ? { named: subject.namedFiles } : {}),
  });
  return createHash('sha256').update(canonical).digest('hex');
}

/** Reads a write target as it is now; null when missing (a new file). */
export async function snapshotFile(absPath: string): Promise<string | null> {
  try {
    // Hash as latin1 so binary content round-trips byte for byte.
    return await readFile(absPath, 'latin1');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    return `unreadable: ${code ?? 'error'}`;
  }
}

/**
 * Deeper than the registry lets arguments through (64). A fingerprint must cover every byte, so
 * a deeper value is refused (the gate turns the throw into a refusal), never cut to fit.
 */
export const MAX_HASHED_DEPTH = 100;

/** JSON with object keys sorted, so equal values hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (nestsDeeperThan(value, MAX_HASHED_DEPTH)) {
    throw new Error(`the arguments nest deeper than ${MAX_HASHED_DEPTH} levels`);
  }
  return JSON.stringify(sortKeys(value)) ?? 'undefined';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
  }
  return value;
}
