// Builds the three Electron parts into out/ (main, preload, renderer) plus the headless CLI,
// which is a second entry of the main build: out/main/cli.js, runnable with plain Node.
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import { openaiFetchGlobals } from './scripts/openai-fetch-globals';
import {
  CONTENT_SECURITY_POLICY,
  DEV_CONTENT_SECURITY_POLICY,
} from './src/main/content-security-policy';

const cliEntry = resolve(__dirname, 'src/cli/index.ts');
// The CLI is written in its own issue; until its entry exists the build skips it.
const hasCli = existsSync(cliEntry);

// Only packages that must stay files of their own are left to Node's require at run time:
// node-pty is a native addon, and web-tree-sitter and tree-sitter-bash load their wasm from their
// package folders. Every other dependency is bundled into main and the CLI. ESM-only packages
// (electron-store, strip-ansi, marked) must be, so the CommonJS output never require()s an ES
// module; the rest are, because resolving and reading hundreds of small files is most of what
// loading them costs (typebox, ajv, openai and zod: 25-100 ms each as files, a fraction of that
// bundled, and only the parts used are kept). The chunks still split by command (src/cli/commands.ts).
const keptExternal = new Set(['node-pty', 'web-tree-sitter', 'tree-sitter-bash']);
const packageJson = JSON.parse(readFileSync(resolve(__dirname, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};
const bundledDeps = Object.keys(packageJson.dependencies).filter((name) => !keptExternal.has(name));

/** The CLI chunk is a program: give it a shebang (via `banner`) and the executable bit. */
function executableCli(): Plugin {
  return {
    name: 'tandem-executable-cli',
    writeBundle(options, bundle) {
      const dir = options.dir ?? resolve(__dirname, 'out/main');
      for (const file of Object.keys(bundle)) {
        if (file === 'cli.js') chmodSync(resolve(dir, file), 0o755);
      }
    },
  };
}

/** In `electron-vite dev` the page needs the dev CSP (HMR); the built page keeps the strict one. */
function devContentSecurityPolicy(): Plugin {
  return {
    name: 'tandem-dev-csp',
    apply: 'serve',
    transformIndexHtml: (html) =>
      html.replace(CONTENT_SECURITY_POLICY, DEV_CONTENT_SECURITY_POLICY),
  };
}

export default defineConfig({
  main: {
    plugins: [executableCli(), openaiFetchGlobals()],
    build: {
      outDir: 'out/main',
      externalizeDeps: { exclude: bundledDeps },
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          ...(hasCli ? { cli: cliEntry } : {}),
          // The file tools' worker thread (search, find, big reads): its own entry, found at run
          // time beside the module that starts it (src/main/tools/files/scan-worker-client.ts).
          'scan-worker': resolve(__dirname, 'src/main/tools/files/scan-worker.ts'),
        },
        output: {
          entryFileNames: '[name].js',
          // Shared chunks sit beside the entries, so every main chunk has the worker next to it.
          chunkFileNames: '[name]-[hash].js',
          // A package loaded on first use (node-pty, web-tree-sitter) is require()d as before,
          // not import()ed as an ES module from the CommonJS output.
          dynamicImportInCjs: false,
          banner: (chunk) => (chunk.isEntry && chunk.name === 'cli' ? '#!/usr/bin/env node' : ''),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        // A sandboxed preload can only be CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].js' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    // Relative asset URLs so the page also loads from file://.
    base: './',
    plugins: [react(), devContentSecurityPolicy()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      emptyOutDir: true,
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
  },
});
