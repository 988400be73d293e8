import { defineConfig } from 'vitest/config';

// Unit and integration tests: plain Node, real files, real pty, real HTTP.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'bench/**/*.test.ts', 'docs/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Transformed by vitest, so a test can give electron-store a stand-in for Electron's app
    // paths and write through the window's real settings store (src/main/store/window-data-dir.test.ts).
    server: { deps: { inline: ['electron-store'] } },
  },
});
