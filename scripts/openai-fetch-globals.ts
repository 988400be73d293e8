// A build step shared by the build (electron.vite.config.ts) and the unit tests
// (vitest.config.mts), so the tests run the openai SDK exactly as the build composes it.
import { resolve } from 'node:path';
import type { Plugin } from 'vite';

/**
 * The openai SDK's modules name the fetch globals `Headers` and `FormData`, whose first touch in
 * Node loads all of undici (30-45 ms before the first model request, issue 15). Each SDK module
 * that names one gets an import of Tandem's stand-ins instead (src/main/agent/openai-globals.ts);
 * the model's requests go over node:http (http-fetch.ts). A module that declares such a name
 * itself fails the build (a duplicate binding), never silently.
 */
export function openaiFetchGlobals(): Plugin {
  const stand = resolve(__dirname, '../src/main/agent/openai-globals.ts');
  const sdkModule = /[\\/]node_modules[\\/]openai[\\/].*\.m?js$/;
  return {
    name: 'tandem-openai-fetch-globals',
    transform(code, id) {
      if (!sdkModule.test(id)) return null;
      const names = ['Headers', 'FormData'].filter((name) =>
        new RegExp(`(?<![\\w$.])${name}(?![\\w$])`).test(code),
      );
      if (names.length === 0) return null;
      return {
        code: `import { ${names.join(', ')} } from ${JSON.stringify(stand)};\n${code}`,
        map: null,
      };
    },
  };
}
