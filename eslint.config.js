import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'

export default tseslint.config(
  {
    ignores: [
      'build/**',
      'node_modules/**',
      '.data/**',
      'test-results/**',
      'playwright-report/**',
      'public/**',
      '.cache/**',
      'bench/anchor/build/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['warn', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // Request bodies are read in one place (limits, 400 for bodies that cannot be parsed): app/platform/http/body.server.ts.
    files: ['app/**/*.{ts,tsx}', 'server.ts'],
    ignores: ['app/platform/http/body.server.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['formData', 'json', 'text', 'arrayBuffer', 'blob'].map((property) => ({
          object: 'request',
          property,
          message: 'Read request bodies with readForm/readJson/readText from #app/platform/http/body.server.',
        })),
      ],
    },
  },
)
