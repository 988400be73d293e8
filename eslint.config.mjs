// Lint rules, including the house rules of DESIGN.md §2 as import restrictions.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'Only the Electron shell (src/main/index.ts, src/main/ipc/electron*.ts, src/main/store adapters, src/preload) may import electron.' }] }],
    },
  },
  {
    // The Electron shell and its adapters are the only code that may import electron.
    files: ['src/main/index.ts', 'src/main/ipc/electron*.ts', 'src/main/store/electron*.ts', 'src/preload/**/*.ts', 'e2e/electron*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // src/shared is the contract: pure TypeScript, nothing platform-specific.
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['electron', 'react', ...nodeBuiltins] }],
    },
  },
  {
    // The renderer has no Node: it imports only src/shared from outside itself.
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: ['electron', ...nodeBuiltins],
          patterns: [{ group: ['**/main/**', '**/preload/**', '**/cli/**'], message: 'The renderer imports only src/shared from outside itself.' }],
        },
      ],
    },
  },
);
