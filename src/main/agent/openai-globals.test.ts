// The stand-ins the build gives the openai SDK for `Headers` and `FormData` must answer as fetch's
// own would, and must not load undici doing it. A fresh process each, so Node's lazy globals are
// still untouched when the check starts.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tandem-openai-globals-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const UNDICI = 'NativeModule internal/deps/undici/undici';

/** Runs `body` (a module with the stand-ins imported) in a fresh Node; its printed JSON. */
async function inFreshNode(body: string): Promise<unknown> {
  const script = join(dir, `check-${Math.random().toString(36).slice(2)}.mts`);
  await writeFile(
    script,
    `import { Headers as SdkHeaders, FormData as SdkFormData } from ${JSON.stringify(
      resolve(__dirname, 'openai-globals.ts'),
    )};\nconst undiciLoaded = () => process.moduleLoadList.includes(${JSON.stringify(UNDICI)});\n${body}\n`,
  );
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (part: Buffer) => (out += part.toString()));
  child.stderr.on('data', (part: Buffer) => (err += part.toString()));
  const code = await new Promise((done) => child.on('close', done));
  expect(err).toBe('');
  expect(code).toBe(0);
  return JSON.parse(out) as unknown;
}

describe("the openai SDK's fetch globals", () => {
  it('build headers and check bodies without loading undici', async () => {
    const seen = await inFreshNode(`
      const headers = new SdkHeaders();
      headers.append('Accept', 'application/json');
      console.log(JSON.stringify({
        entries: [...headers],
        isHeaders: headers instanceof SdkHeaders,
        plainIsHeaders: ({}) instanceof SdkHeaders,
        formData: [{}, 'text', new URLSearchParams('a=1'), null].map((v) => v instanceof SdkFormData),
        undici: undiciLoaded(),
      }));`);
    expect(seen).toEqual({
      entries: [['accept', 'application/json']],
      isHeaders: true,
      plainIsHeaders: false,
      formData: [false, false, false, false],
      undici: false,
    });
  });

  it("know fetch's own Headers and FormData once something has taken them", async () => {
    const seen = await inFreshNode(`
      const real = new globalThis.Headers({ a: '1' });
      const form = new globalThis.FormData();
      const made = new SdkFormData();
      console.log(JSON.stringify({
        realIsHeaders: real instanceof SdkHeaders,
        formIsFormData: form instanceof SdkFormData,
        madeIsReal: made instanceof globalThis.FormData,
        undici: undiciLoaded(),
      }));`);
    expect(seen).toEqual({
      realIsHeaders: true,
      formIsFormData: true,
      madeIsReal: true,
      undici: true,
    });
  });
});
