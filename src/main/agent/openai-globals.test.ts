// The stand-ins the build gives the openai SDK for `Headers` and `FormData` must answer as fetch's
// own would, and must not load undici doing it. A fresh process each, so Node's lazy globals are
// still untouched when the check starts.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTsChild } from '../../test-support/ts-child';

const UNDICI = 'NativeModule internal/deps/undici/undici';

/** Runs `body` (a module with the stand-ins imported) in a fresh Node; its printed JSON. */
async function inFreshNode(body: string): Promise<unknown> {
  const run = await runTsChild(
    `import { Headers as SdkHeaders, FormData as SdkFormData } from ${JSON.stringify(
      resolve(__dirname, 'openai-globals.ts'),
    )};\nconst undiciLoaded = () => process.moduleLoadList.includes(${JSON.stringify(UNDICI)});\n${body}\n`,
  );
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as unknown;
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
