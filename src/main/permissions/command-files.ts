// The project files a command names (`sh run.sh`, `python tools/x.py`, `./build.sh`): a card for
// the command was answered on them as they were, so their content is part of what it approved.
// A turn's cards are answered together, before the calls ahead of them ran: one of those may
// rewrite the script a later, already allowed command runs (see the approval fingerprint).
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import type { CommandPart } from '../../shared/tool-types';
import { isInside } from '../workspace/path-guard';

/** A command line and the simple commands the classifier found in it. */
export interface NamedCommand {
  readonly text: string;
  readonly parts: readonly CommandPart[];
}

/**
 * Words looked at besides each part's program and its first operand (always looked at: the
 * script an interpreter runs), folders a word may be read from, and the size of a file whose
 * content is kept (bigger ones by digest).
 */
const MAX_WORDS = 256;
const MAX_BASES = 8;
const MAX_READ_BYTES = 1_000_000;
/** Up to this size a larger file is bound by its SHA-256; beyond, by size, times and inode. */
const MAX_HASHED_BYTES = 256 * 1024 * 1024;

/**
 * Content (or a digest, when large) of each regular project file the command names; with
 * `same`, of exactly those files (a key of an earlier answer), 'gone' for one no longer there. A
 * file made after the card (by a call ahead whose own card or start showed it) is not news.
 * A word counts from the project folder and from each project folder the command enters (`cd
 * sub && sh run.sh`, `make -C sub`); a link counts as the file it leads to.
 */
export async function namedFileContents(
  folder: string,
  command: NamedCommand,
  same?: readonly string[],
): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  if (same) {
    for (const relative of same) {
      found[relative] = (await fileState(path.resolve(folder, relative))) ?? 'gone';
    }
    return found;
  }
  const words = wordsOf(command);
  for (const base of await basesOf(folder, command.parts, words)) {
    for (const word of words) {
      const abs = path.resolve(base, word);
      const relative = projectRelative(folder, abs);
      if (relative === undefined || relative in found) continue;
      const state = await fileState(abs);
      if (state !== undefined) found[relative] = state;
    }
  }
  return found;
}

/**
 * Each part's program, first operand and input file (`bash < run.sh`) first, then the other
 * words, up to the limit. A word with an expansion the classifier left as written (`$PWD/run.sh`,
 * `"${PWD}/sub/x.sh"`) counts by each path after it (`run.sh`; `sub/x.sh` and `x.sh`).
 */
function wordsOf({ text, parts }: NamedCommand): string[] {
  const first: string[] = [];
  const rest: string[] = [];
  for (const { argv } of parts) {
    const operand = argv.slice(1).find((word) => !word.startsWith('-'));
    first.push(...(argv[0] !== undefined ? [argv[0]] : []), ...(operand ? [operand] : []));
    rest.push(...argv);
  }
  // Redirections are in no part's argv: the command line names their files.
  const tokens = text.split(/[\s|;&()]+/).filter((token) => token !== '');
  tokens.forEach((token, i) => {
    const input = /^\d*<$/.test(token) ? tokens[i + 1] : /^\d*<([^<>].*)$/.exec(token)?.[1];
    if (input !== undefined) first.push(input);
  });
  rest.push(...tokens);
  const words = new Set(first.flatMap(variants));
  const limit = words.size + MAX_WORDS;
  for (const word of rest.flatMap(variants)) {
    if (words.size >= limit) break;
    words.add(word);
  }
  return [...words].filter((word) => word !== '' && !word.startsWith('-'));
}

/** The word without quotes; with an expansion in it, the paths after each `/` instead. */
function variants(word: string): string[] {
  const plain = word.replace(/["']/g, '');
  if (!/[$~`]/.test(plain)) return [plain];
  const found: string[] = [];
  for (let at = plain.indexOf('/'); at !== -1; at = plain.indexOf('/', at + 1)) {
    const tail = plain.slice(at + 1);
    if (tail !== '' && !/[$~`]/.test(tail)) found.push(tail);
  }
  return found;
}

/** The project folder, the folders `cd` enters in turn, and project folders the words name. */
async function basesOf(
  folder: string,
  parts: readonly CommandPart[],
  words: readonly string[],
): Promise<string[]> {
  const bases = new Set([folder]);
  let cwd = folder;
  for (const { argv } of parts) {
    if ((argv[0] === 'cd' || argv[0] === 'pushd') && argv[1] !== undefined) {
      cwd = path.resolve(cwd, argv[1]);
      if (isInside(folder, cwd)) bases.add(cwd);
    }
  }
  for (const word of words) {
    if (bases.size >= MAX_BASES) break;
    const abs = path.resolve(folder, word);
    if (projectRelative(folder, abs) === undefined) continue;
    if (await isFolder(abs)) bases.add(abs);
  }
  return [...bases].slice(0, MAX_BASES);
}

/** `abs` (a resolved path) relative to the project folder when strictly inside it. */
function projectRelative(folder: string, abs: string): string | undefined {
  return abs !== folder && isInside(folder, abs) ? path.relative(folder, abs) : undefined;
}

async function isFolder(abs: string): Promise<boolean> {
  try {
    return (await stat(abs)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * A regular file's content (through links), its digest when large; undefined for
 * anything else. Opened without blocking and checked again on the open file, so a FIFO put there
 * in between cannot hold the gate.
 */
async function fileState(abs: string): Promise<string | undefined> {
  let handle;
  try {
    // Only a regular file is opened at all (opening a device may do something).
    if (!(await stat(abs)).isFile()) return undefined;
    handle = await open(abs, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch {
    return undefined;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return undefined;
    // A modification time can be put back (`touch -r`): the content itself, hashed, unless huge.
    if (info.size > MAX_HASHED_BYTES) {
      return `huge: ${info.size} bytes, inode ${info.ino}, modified ${info.mtimeMs}, changed ${info.ctimeMs}`;
    }
    if (info.size > MAX_READ_BYTES) {
      const hash = createHash('sha256');
      for await (const chunk of handle.createReadStream({ autoClose: false }))
        hash.update(chunk as Buffer);
      return `sha256: ${hash.digest('hex')}`;
    }
    // As the approval fingerprint reads a file: latin1, so any bytes round-trip.
    return await handle.readFile('latin1');
  } catch (error) {
    return `unreadable: ${(error as NodeJS.ErrnoException).code ?? 'error'}`;
  } finally {
    await handle.close();
  }
}
