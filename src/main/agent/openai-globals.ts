// The fetch globals the openai SDK's code names, without loading undici (see http-fetch.ts). In
// Node 20 `Headers` and `FormData` are lazy globals: the first touch of either loads all of undici
// (30-45 ms before the first model request). The SDK builds every request's headers with
// `new Headers()` and asks `body instanceof FormData` of every body, so the build
// (electron.vite.config.ts, `openaiFetchGlobals`) prepends an import of these two to each SDK
// module that names them. Tests run the SDK unbundled, with the real globals.
import { FetchHeaders } from './fetch-headers';

/**
 * Node's global `name` if something in this process has taken it already. Node defines these as
 * lazy accessors that turn into plain values on first read; until then no object of that class
 * can exist here, so nothing can be an instance of it.
 */
function takenGlobal(name: 'Headers' | 'FormData'): unknown {
  const own = Object.getOwnPropertyDescriptor(globalThis, name);
  return own && 'value' in own ? own.value : undefined;
}

function isInstanceOfTaken(name: 'Headers' | 'FormData', value: unknown): boolean {
  const real = takenGlobal(name);
  return typeof real === 'function' && value instanceof real;
}

/** The SDK's `Headers`: FetchHeaders, and an instance check that also knows fetch's own. */
class SdkHeaders extends FetchHeaders {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof FetchHeaders || isInstanceOfTaken('Headers', value);
  }
}

/** The SDK's `FormData`: fetch's own, loaded only if the SDK makes one (an upload). */
function SdkFormData(): FormData {
  return new globalThis.FormData();
}
Object.defineProperty(SdkFormData, Symbol.hasInstance, {
  value: (value: unknown): boolean => isInstanceOfTaken('FormData', value),
});

export { SdkHeaders as Headers, SdkFormData as FormData };
