import { defineConfig } from 'vitest/config';
import { openaiFetchGlobals } from './scripts/openai-fetch-globals';

// Unit and integration tests: plain Node, real files, real pty, real HTTP.
export default defineConfig({
  // The openai SDK is composed as the build composes it (its Headers and FormData are Tandem's).
  plugins: [openaiFetchGlobals()],
  test: {
    include: ['src/**/*.test.ts', 'bench/**/*.test.ts', 'docs/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Transformed by vitest, so a test can give electron-store a stand-in for Electron's app
    // paths and write through the window's real settings store (src/main/store/window-data-dir.test.ts).
    // openai is transformed too, for the build step above.
    server: { deps: { inline: ['electron-store', 'openai'] } },
  },
});
