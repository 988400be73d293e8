import { defineConfig } from 'vitest/config';

// The window, driven through real Chromium over the built renderer.
export default defineConfig({
  test: {
    include: ['e2e/**/*.spec.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    // One retry for the browser specs: the Settings model-list step failed about once in ten
    // full runs on a loaded machine and the cause is not found yet. A retry must pass on its own,
    // and a failure prints what the page showed (see e2e/settings.spec.ts).
    retry: 1,
  },
});
