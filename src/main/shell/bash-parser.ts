// Loads tree-sitter-bash through web-tree-sitter from local files, once, on first use (or when a
// session opens: warmBashParser). Nothing is fetched: the runtime wasm and the grammar wasm both
// come from node_modules. web-tree-sitter itself is imported then too, so a process that never
// parses (`tandem --version`, the window before a session) never loads it.
import { createRequire } from 'node:module';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { Node, Parser, Tree } from 'web-tree-sitter';

export type { Node as SyntaxNode };

let loading: Promise<Parser> | undefined;

/** The module's own location: import.meta.url in ESM; CommonJS bundles and tsx give __filename. */
function here(): string {
  const url: unknown = import.meta.url;
  if (typeof url === 'string' && url) return url;
  if (typeof __filename === 'string') return __filename;
  return path.join(process.cwd(), 'package.json');
}

function localFile(specifier: string): string {
  return createRequire(here()).resolve(specifier);
}

async function load(): Promise<Parser> {
  // V8 first runs wasm from its quick baseline compiler (Liftoff) and recompiles hot functions
  // with TurboFan. The grammar's lexer is one 160 KB function: TurboFan takes 1.5-2.5 s of CPU on
  // it, during which the main thread of this process waited (the first command's policy
  // decision stalled for seconds) and a short process could not exit. A command line parses in
  // well under a millisecond with baseline code, so this process never tiers wasm up. (The flag
  // is process-wide: the only other wasm here, fetch's small HTTP parser, is as fine without.)
  setFlagsFromString('--liftoff-only');
  const { Language, Parser } = await import('web-tree-sitter');
  const runtimeWasm = localFile('web-tree-sitter/web-tree-sitter.wasm');
  await Parser.init({ locateFile: () => runtimeWasm });
  const language = await Language.load(localFile('tree-sitter-bash/tree-sitter-bash.wasm'));
  const parser = new Parser();
  parser.setLanguage(language);
  return parser;
}

function parser(): Promise<Parser> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined; // let a later call retry instead of caching the failure
    throw error;
  });
  return loading;
}

/**
 * Loads the parser and parses once, so the first command a model asks for does not wait for the
 * wasm to compile. Never rejects: a failure shows where a command is parsed.
 */
export async function warmBashParser(): Promise<void> {
  try {
    (await parseBash('true')).delete();
  } catch {
    // parseBash reports it, with the command, when it matters
  }
}

/** Parses a bash command line. The caller must `delete()` the tree when done with it. */
export async function parseBash(source: string): Promise<Tree> {
  const tree = (await parser()).parse(source);
  if (!tree) throw new Error('The shell parser returned no tree.');
  return tree;
}
