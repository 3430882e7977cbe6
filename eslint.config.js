// Lint (npm run lint, first in npm test): the recommended JavaScript and TypeScript rules and React's
// rules of hooks. Formatting is Prettier's (npm run format:check), not a lint rule; the import
// layers are dependency-cruiser's (.dependency-cruiser.cjs).
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'

export default tseslint.config(
  // What .gitignore leaves out (build output, test results, the benchmarks' generated workspaces).
  { ignores: ['node_modules/**', 'dist/**', 'dist-electron/**', 'release/**', 'coverage/**', 'test-results/**', '.retake-dev/**', 'bench/.work/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      // `_name` marks what is taken apart on purpose (a field dropped from a copy).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
      // `let x = fallback; try { x = read() } catch {}` is how a read that may fail is written here.
      'no-useless-assignment': 'off',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'test/unit/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    // The rules of hooks. The plugin's React Compiler rules are not on: Retake does not build with
    // the compiler, and they flag patterns (a ref read in render, state set in an effect) the code
    // uses on purpose and its tests cover.
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // The fake LLM and the benchmarks handle wire formats and page internals as they come.
    files: ['test/**/*.{ts,tsx}', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
)
