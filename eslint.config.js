import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Import direction (docs/architecture.md): shared ← server | main | preload | renderer, never sideways.
const forbidPrograms = (...programs) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: programs.map((program) => ({
        regex: `(^|/)(src/)?${program}(/|$)`,
        message: `This program must not import from src/${program} (import direction: see docs/architecture.md).`,
      })),
    },
  ],
});

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'out/', 'release/', 'data/', 'coverage/', 'test-results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  { files: ['src/shared/**'], rules: forbidPrograms('server', 'main', 'preload', 'renderer') },
  { files: ['src/server/**'], rules: forbidPrograms('main', 'preload', 'renderer') },
  { files: ['src/main/**'], rules: forbidPrograms('server', 'preload', 'renderer') },
  { files: ['src/preload/**'], rules: forbidPrograms('server', 'main', 'renderer') },
  {
    files: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: forbidPrograms('server', 'main', 'preload'),
  },
);
