// Loads tree-sitter-bash through web-tree-sitter from local files, once, on first use.
// Nothing is fetched: the runtime wasm and the grammar wasm both come from node_modules.
import { createRequire } from 'node:module';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Language, Parser } from 'web-tree-sitter';
import type { Node, Tree } from 'web-tree-sitter';

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
  // is process-wide; tree-sitter is the only wasm in the main process and the CLI.)
  setFlagsFromString('--liftoff-only');
  const runtimeWasm = localFile('web-tree-sitter/web-tree-sitter.wasm');
  await Parser.init({ locateFile: () => runtimeWasm });
  const language = await Language.load(localFile('tree-sitter-bash/tree-sitter-bash.wasm'));
  const parser = new Parser();
  parser.setLanguage(language);
  return parser;
}

/** Parses a bash command line. The caller must `delete()` the tree when done with it. */
export async function parseBash(source: string): Promise<Tree> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined; // let a later call retry instead of caching the failure
    throw error;
  });
  const parser = await loading;
  const tree = parser.parse(source);
  if (!tree) throw new Error('The shell parser returned no tree.');
  return tree;
}
