// The page's `window` as seen inside page.evaluate callbacks: e2e code compiles for Node
// (no DOM lib), so the few page globals the specs touch are declared here.
import type { TandemApi } from '../../src/shared/api';

declare global {
  const window: {
    readonly tandem: TandemApi;
    open(url: string): unknown;
    location: { href: string };
  };
}

export {};
