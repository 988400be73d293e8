// Which tokenizer to count with: gpt-tokenizer or js-tiktoken, by load time, memory, counting speed
// and size on disk, over the repository's own source (about 1.5 MB of TypeScript). Each case runs in
// its own process so memory figures do not mix.
// Run: npx tsx bench/tokenizer.bench.ts [js-tiktoken's folder: Tandem does not install it]
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sourceCorpus } from './context-scenarios';

type Encoding = 'o200k_base' | 'cl100k_base';
type Count = (text: string) => number;

async function load(lib: string, encoding: Encoding, tiktokenPath: string): Promise<Count> {
  if (lib === 'gpt-tokenizer') {
    const module: { countTokens: (t: string, o: object) => number } =
      encoding === 'o200k_base'
        ? await import('gpt-tokenizer/encoding/o200k_base')
        : await import('gpt-tokenizer/encoding/cl100k_base');
    const plain = { disallowedSpecial: new Set<string>() };
    return (text) => module.countTokens(text, plain);
  }
  // Its ESM entry does not load under tsx's CommonJS; the bundled CommonJS build does.
  const { getEncoding } = (await import(join(tiktokenPath, 'dist', 'index.cjs'))) as {
    getEncoding: (e: Encoding) => { encode: (t: string, a?: unknown, d?: unknown) => number[] };
  };
  const tokenizer = getEncoding(encoding);
  return (text) => tokenizer.encode(text, [], []).length;
}

function diskSize(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + diskSize(join(path, name)), 0);
}

async function measure(lib: string, encoding: Encoding, tiktokenPath: string): Promise<void> {
  const corpus = sourceCorpus();
  // Messages of a session: about 4 KB each.
  const pieces = corpus.match(/[\s\S]{1,4096}/g) ?? [];
  const rssBefore = process.memoryUsage().rss;
  let start = performance.now();
  const count = await load(lib, encoding, tiktokenPath);
  count('warm up');
  const loadMs = performance.now() - start;
  const rssLoaded = process.memoryUsage().rss;
  start = performance.now();
  let tokens = 0;
  for (const piece of pieces) tokens += count(piece);
  const countMs = performance.now() - start;
  const mb = Buffer.byteLength(corpus) / 1e6;
  console.log(
    `${lib} ${encoding}: load ${loadMs.toFixed(0)} ms, +${((rssLoaded - rssBefore) / 1e6).toFixed(0)} MB RSS; ` +
      `${tokens.toLocaleString('en-US')} tokens in ${mb.toFixed(2)} MB, ${(mb / (countMs / 1000)).toFixed(1)} MB/s ` +
      `(${(Buffer.byteLength(corpus) / tokens).toFixed(2)} bytes a token)`,
  );
}

function main(): void {
  const [lib, encoding, path] = process.argv.slice(2);
  if (lib && encoding) {
    void measure(lib, encoding as Encoding, path ?? 'js-tiktoken');
    return;
  }
  const tiktoken = lib;
  const libs = tiktoken ? ['gpt-tokenizer', 'js-tiktoken'] : ['gpt-tokenizer'];
  for (const name of libs) {
    for (const enc of ['o200k_base', 'cl100k_base']) {
      const args = [...process.execArgv, __filename, name, enc, ...(tiktoken ? [tiktoken] : [])];
      const run = spawnSync(process.execPath, args, { encoding: 'utf8' });
      process.stdout.write(run.stdout + run.stderr);
    }
  }
  const own = join(__dirname, '..', 'node_modules', 'gpt-tokenizer');
  console.log(`on disk: gpt-tokenizer ${(diskSize(own) / 1e6).toFixed(1)} MB`);
  if (tiktoken) console.log(`on disk: js-tiktoken ${(diskSize(tiktoken) / 1e6).toFixed(1)} MB`);
}

main();
