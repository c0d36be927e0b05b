// One lint config for the whole monorepo. Deliberately not type-aware: it must stay fast enough to
// run on every commit of every engineer (2 cores), and `tsc` already does the type checking.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import testRules from './scripts/lint/no-fixed-wait.mjs';

// Boundaries (docs/architecture.md): a service never imports another service, and nobody imports
// a library (or a service) by a deep path: only what a package.json "exports" lists. Built from
// the directories, so a new service or library is covered without touching this file.
const packagesIn = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(`${dir}/${d.name}/package.json`))
    .map((d) => d.name);
const SERVICES = packagesIn('services');
const LIBS = packagesIn('libs');
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const entryPatterns = [...LIBS.map((l) => ['libs', l]), ...SERVICES.map((s) => ['services', s])].map(([dir, name]) => {
  const { exports = {} } = JSON.parse(readFileSync(`${dir}/${name}/package.json`, 'utf8'));
  const subpaths = Object.keys(exports)
    .filter((k) => k !== '.')
    .map((k) => escape(k.slice(2)));
  return {
    regex: `^@wb/${escape(name)}/${subpaths.length ? `(?!(${subpaths.join('|')})$)` : ''}`,
    message: `Import @wb/${name} through its package entry (${['.', ...subpaths].join(', ')}), not a deep path.`,
  };
});
const libBoundaries = [
  ...entryPatterns,
  { regex: '^(\\.\\./)+(libs|services)/', message: 'Import libraries and services by package name (@wb/...), not by a relative path.' },
];
const serviceBoundaries = (own) => {
  const others = SERVICES.filter((s) => s !== own).map(escape);
  return [
    ...libBoundaries,
    {
      regex: `^@wb/(${SERVICES.map(escape).join('|')})$`,
      message: 'A service never imports a service (its own package entry included): share through libs/ or call it over HTTP/events.',
    },
    ...(others.length
      ? [{ regex: `^(\\.\\./)+(${others.join('|')})/`, message: 'A service never imports another service: share through libs/ or call it over HTTP/events.' }]
      : []),
  ];
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.tools/**',
      '.data/**',
      '.test-data/**',
      '.ci-results/**',
      'coverage/**',
      'bench-results/**',
      'charts/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node, ...globals.browser },
    },
    linterOptions: { reportUnusedDisableDirectives: 'warn' },
    rules: {
      // `_`-prefixed names mark parameters kept for a signature (Express error handlers need four).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // Express's global Request augmentation needs `declare global { namespace Express { ... } }`.
      '@typescript-eslint/no-namespace': ['error', { allowDeclarations: true }],
      // Empty catch blocks are used on purpose for best-effort cleanup; they carry a comment.
      'no-empty': ['error', { allowEmptyCatch: true }],
      // Emoji classes list joiners and variation selectors (\u200d, \ufe0f) on purpose; written as
      // escapes they are clearly intended, so only unescaped combined characters are reported.
      'no-misleading-character-class': ['error', { allowEscape: true }],
      // Boundaries (JSON bodies, driver results) sometimes need `any`; visible, but not blocking.
      '@typescript-eslint/no-explicit-any': 'warn',
      'no-restricted-imports': ['error', { patterns: libBoundaries }],
    },
  },
  ...SERVICES.map((name) => ({
    files: [`services/${name}/**/*.{ts,tsx,js,mjs}`],
    rules: { 'no-restricted-imports': ['error', { patterns: serviceBoundaries(name) }] },
  })),
  {
    // Tests are written against moving code; loose typing and leftovers there must not block a run.
    files: ['**/test/**/*.{ts,tsx,js,mjs}'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': [
        'warn',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-useless-assignment': 'warn',
    },
  },
  {
    // No fixed waits in tests (issue 36): poll a condition; scripts/lint/no-fixed-wait.mjs says how.
    files: ['**/test/**/*.{ts,tsx,js,mjs}'],
    plugins: { tests: testRules },
    rules: { 'tests/no-fixed-wait': 'error' },
  },
  {
    // One button system (issue 36): the SPA's buttons are components/ui's Button / IconButton.
    files: ['frontend/src/**/*.tsx'],
    ignores: ['frontend/src/components/ui/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXOpeningElement[name.name='button']",
          message: "Use Button or IconButton from components/ui (variant 'plain' when the feature's class draws it), not a hand-written <button>.",
        },
      ],
    },
  },
  {
    // The caller is read one way (issue 36): currentUserId / signedInUser / optionalUserId from @wb/service-kit.
    files: ['services/*/src/routes/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='req'][property.name='user']",
          message: 'Read the caller with currentUserId(req), signedInUser(req) or optionalUserId(req) from @wb/service-kit.',
        },
      ],
    },
  },
  {
    // k6 scripts run in k6's runtime, not Node: its globals (__ENV, __VU) are provided there.
    files: ['loadtests/**/*.js'],
    languageOptions: {
      globals: { __ENV: 'readonly', __VU: 'readonly', __ITER: 'readonly', open: 'readonly' },
    },
  },
);
