import { defineConfig } from 'vitest/config';

// The window, driven through real Chromium over the built renderer.
export default defineConfig({
  test: {
    include: ['e2e/**/*.spec.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
