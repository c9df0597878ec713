import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Import direction (docs/architecture.md): shared ← server | main | preload | renderer, never sideways.
// `no-restricted-imports` sees import and export statements; the selector sees `import()`.
const forbidPrograms = (...programs) => {
  const pattern = `(^|/)(src/)?(${programs.join('|')})(/|$)`;
  const message = `This program must not import from src/${programs.join(', src/')} (import direction: see docs/architecture.md).`;
  return {
    'no-restricted-imports': ['error', { patterns: [{ regex: pattern, message }] }],
    'no-restricted-syntax': [
      'error',
      { selector: `ImportExpression[source.value=/${pattern.replaceAll('/', '\\/')}/]`, message },
    ],
  };
};

const RENDERER = 'src/renderer/src';

// The portal's layers (docs/architecture.md): app → features → components and lib, never upward;
// a feature reaches another only through its `index.ts`; app loads pages lazily from `pages/`.
const portalLayers = {
  plugins: { boundaries },
  settings: {
    'boundaries/elements': [
      { type: 'app', pattern: `${RENDERER}/app`, partialMatch: false },
      { type: 'feature', pattern: `${RENDERER}/features/*`, capture: ['name'], partialMatch: false },
      { type: 'components', pattern: `${RENDERER}/components`, partialMatch: false },
      { type: 'lib', pattern: `${RENDERER}/lib`, partialMatch: false },
      { type: 'entry', pattern: `${RENDERER}/*.{ts,tsx}`, partialMatch: false },
    ],
    'boundaries/files': [
      { category: 'public', pattern: `**/${RENDERER}/features/*/index.ts` },
      { category: 'page', pattern: `**/${RENDERER}/features/*/pages/**` },
      // Every feature file has a category, so "none of public" can match the rest.
      { category: 'feature-file', pattern: `**/${RENDERER}/features/**` },
    ],
    'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
    'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
  },
  rules: {
    'boundaries/dependencies': [
      'error',
      {
        default: 'allow',
        policies: [
          {
            from: { element: { types: { anyOf: ['components', 'lib'] } } },
            disallow: { to: { element: { types: { anyOf: ['app', 'feature', 'entry'] } } } },
            message: 'components/ and lib/ know no feature and no app code (docs/architecture.md).',
          },
          {
            from: { element: { type: 'feature' } },
            disallow: { to: { element: { types: { anyOf: ['app', 'entry'] } } } },
            message: 'A feature does not import app/ (app composes features, not the other way round).',
          },
          {
            from: { element: { type: 'feature' } },
            disallow: { to: { element: { type: 'feature' }, file: { categories: { noneOf: ['public'] } } } },
            message: 'Another feature is reached through its index.ts only, not its internals.',
          },
          {
            // A later policy wins: a feature's own files are its own business.
            from: { element: { type: 'feature' } },
            allow: {
              to: { element: { type: 'feature', captured: { name: '{{ from.element.captured.name }}' } } },
            },
          },
          {
            from: { element: { type: 'app' } },
            disallow: {
              to: { element: { type: 'feature' }, file: { categories: { noneOf: ['public', 'page'] } } },
            },
            message: 'app/ reaches a feature through its index.ts, or loads its pages/ lazily.',
          },
        ],
      },
    ],
  },
};

const SERVER = 'src/server';

// The server's contexts and what each may use (docs/architecture.md): licences and money are what
// the coming capabilities add to, so nothing points up at them from below, and integrations only
// listen. The files at the server's root compose them all.
const SERVER_CONTEXTS = {
  platform: [],
  identity: ['platform'],
  catalogue: ['platform'],
  licensing: ['catalogue', 'identity', 'platform'],
  billing: ['licensing', 'catalogue', 'identity', 'platform'],
  distribution: ['licensing', 'platform'],
  integrations: ['platform'],
  support: ['identity', 'platform'],
  admin: [
    'billing',
    'catalogue',
    'distribution',
    'identity',
    'integrations',
    'licensing',
    'platform',
    'support',
  ],
};
const contextNames = Object.keys(SERVER_CONTEXTS);

const serverContexts = {
  plugins: { boundaries },
  settings: {
    'boundaries/elements': [
      ...contextNames.map((name) => ({ type: name, pattern: `${SERVER}/${name}`, partialMatch: false })),
    ],
    'boundaries/files': [
      { category: 'composition', pattern: `**/${SERVER}/*.ts` },
      {
        category: 'repository',
        pattern: [`**/${SERVER}/**/*repository.ts`, `**/${SERVER}/!(platform)/**/tables*.ts`],
      },
      { category: 'index', pattern: `**/${SERVER}/*/index.ts` },
      // Every context file has a category, so "none of index" can match the rest.
      { category: 'context-file', pattern: `**/${SERVER}/*/**` },
    ],
    'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
    // The server imports `./file.js` for `./file.ts` (NodeNext), which TypeScript's resolver follows.
    'import/resolver': { typescript: { project: 'tsconfig.server.json' } },
  },
  rules: {
    'boundaries/dependencies': [
      'error',
      {
        default: 'allow',
        policies: contextNames.flatMap((name) => {
          const others = contextNames.filter((other) => other !== name);
          const above = others.filter((other) => !SERVER_CONTEXTS[name].includes(other));
          // The platform is the shared kernel: any of its files may be imported.
          const reachedByIndex = others.filter((other) => other !== 'platform');
          return [
            // First, so that the policies below, which say more, win where they match too.
            ...(reachedByIndex.length > 0
              ? [
                  {
                    from: { element: { type: name } },
                    disallow: {
                      to: {
                        element: { types: { anyOf: reachedByIndex } },
                        file: { categories: { noneOf: ['index'] } },
                      },
                    },
                    message: 'Another context is reached through its index.ts (docs/architecture.md)',
                  },
                ]
              : []),
            ...(above.length > 0
              ? [
                  {
                    from: { element: { type: name } },
                    disallow: { to: { element: { types: { anyOf: above } } } },
                    message: `The ${name} context may use ${SERVER_CONTEXTS[name].join(', ') || 'nothing above it'}: this import runs upward or sideways (docs/architecture.md).`,
                  },
                ]
              : []),
            {
              from: { element: { type: name } },
              disallow: { to: { file: { categories: { anyOf: ['composition'] } } } },
              message: 'A context imports none of the files at the server root: they compose the contexts.',
            },
            {
              from: { element: { type: name } },
              disallow: {
                to: {
                  element: { types: { anyOf: others } },
                  file: { categories: { anyOf: ['repository'] } },
                },
              },
              message:
                "A context's repositories and tables are its own: ask the context through its index.ts instead.",
            },
          ];
        }),
      },
    ],
  },
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'out/',
      'release/',
      'data/',
      'coverage/',
      'test-results/',
      // Lingui's compiled mail catalogs (npm run i18n:mail), generated like the OpenAPI types.
      'src/server/platform/mail/locales/*.ts',
    ],
  },
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
  { files: [`${RENDERER}/**`], ...portalLayers },
  { files: [`${SERVER}/**`], ...serverContexts },
);
