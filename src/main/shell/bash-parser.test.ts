// The parser runs from V8's baseline wasm code only: an optimizing recompile of the grammar's
// lexer (1.5-2.5 s of CPU) stalled the main thread at the first command and held short processes
// open at exit. V8 traces every wasm function it compiles, with its tier and size.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBash } from './bash-parser';

// A program of its own (the trace is per process), run by tsx from a temp file.
function script(parserModule: string): string {
  return `import { parseBash } from ${JSON.stringify(parserModule)};
const lines = ['git status --short && ls -la | wc -l', 'for f in *; do echo "$f"; done', 'a=$(cat <<EOF\\nx\\nEOF\\n)'];
void (async () => {
  for (let i = 0; i < 200; i++) (await parseBash(lines[i % lines.length] as string)).delete();
  console.log('parsed');
})();
`;
}

async function traced(): Promise<{ stdout: string; code: number | null }> {
  const dir = await mkdtemp(join(tmpdir(), 'tandem-parser-'));
  try {
    const file = join(dir, 'parse.ts');
    await writeFile(file, script(join(__dirname, 'bash-parser')));
    return await new Promise((resolve) => {
      const child = spawn(
        process.execPath,
        ['--trace-wasm-compilation-times', '--import', 'tsx', file],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.on('close', (code) => resolve({ stdout, code }));
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('bash parser', () => {
  it('parses a command line into a tree', async () => {
    const tree = await parseBash('ls -la | wc -l');
    try {
      expect(tree.rootNode.type).toBe('program');
      expect(tree.rootNode.hasError).toBe(false);
      expect(tree.rootNode.firstChild?.type).toBe('pipeline');
    } finally {
      tree.delete();
    }
  });

  it('never recompiles the grammar with the optimizing compiler, however often it parses', async () => {
    const { stdout, code } = await traced();
    expect(code).toBe(0);
    expect(stdout).toContain('parsed');
    const compiled = stdout
      .split('\n')
      .map((line) => /^Compiled function \S+ using (\w+),.* bodysize (\d+)/.exec(line))
      .filter((match) => match !== null)
      .map((match) => ({ tier: match[1], bytes: Number(match[2]) }));
    // The lexer (about 160 KB of wasm) ran, from baseline code: the trace does list it.
    expect(compiled.some((f) => f.tier === 'Liftoff' && f.bytes > 100_000)).toBe(true);
    // tsx's own small lexers (compiled before the parser loads) may still tier up; no big
    // function may: those are the recompiles that cost seconds.
    expect(compiled.filter((f) => f.tier === 'TurboFan' && f.bytes > 10_000)).toEqual([]);
  });
});
