import { defineConfig } from 'vitest/config';

// Unit and integration tests: plain Node, real files, real pty, real HTTP.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'bench/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
