import js from '@eslint/js';
import i18next from 'eslint-plugin-i18next';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import layers from './eslint/layers.js';
import userText from './eslint/user-text.js';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'coverage/**', 'test/artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Type-aware rules: a promise nobody awaits loses its error, and one passed where a
    // callback returns void is never awaited either.
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['*.js', 'bin/*.js', 'scripts/*.mjs'] }, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { deskpilot: layers },
    rules: {
      'deskpilot/layers': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // Every word the window shows comes from the catalogs (src/shared/i18n/locales): text in JSX
    // and the attributes people read (aria-label, title, placeholder, alt, label) are refused.
    files: ['src/renderer/**/*.tsx'],
    ignores: ['src/renderer/**/*.test.tsx'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-only',
          'should-validate-template': true,
          'jsx-attributes': {
            exclude: [
              'className',
              'type',
              'key',
              'id',
              'htmlFor',
              'role',
              'name',
              'value',
              'lang',
              'autoComplete',
              'rel',
              'target',
              'href',
              'src',
              'aria-describedby',
              'aria-labelledby',
              'aria-live',
              'aria-hidden',
              'data-.*',
            ],
          },
          // Calls inside JSX whose strings are ids, setting names or log text, never shown.
          callees: { exclude: ['i18n(ext)?', 't', 'noteFor', 'locked', 'variable', 'errorFor', 'change', 'console.warn', 'console.error'] },
        },
      ],
    },
  },
  {
    // Main's words to people (tray, dialogs, notices, the hotkey's error) and the CLI's approval prompt.
    files: ['src/main/**/*.ts', 'src/cli/approval.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { 'user-text': userText },
    rules: {
      'user-text/user-text': [
        'error',
        {
          properties: ['label', 'title', 'message', 'detail', 'buttonLabel', 'toolTip', 'body', 'error'],
          callees: { setToolTip: [0], showErrorBox: [0, 1], notice: [1], onNotice: [1], stderr: [0] },
        },
      ],
    },
  },
  {
    // Benchmarks and the hand-run session print their results.
    files: ['bench/**/*.ts', 'test/linux/session-cli.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['bin/**/*.js', 'eslint/**/*.js', 'scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
