// ESLint flat config: typescript-eslint everywhere, its type-aware rules on the published
// packages' source (where a floating promise or an unsafe `any` reaches users), and the React
// hooks rules (every recommended rule as an error) wherever hooks are written.
import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

// Browser code reads `process` only behind a guard: a page without a bundler has none, and an
// unguarded read there throws a ReferenceError in place of the typed error (issue 45). The guard is
// `DEV && process.env.NODE_ENV !== 'production'` (CONTRIBUTING.md, "Error messages"), or `typeof
// process === 'object' && …` where `DEV` itself is decided (@tandem/contract/dev).
const GUARDED_NODE_ENV =
  "LogicalExpression[operator='&&']:matches([left.name='DEV'], [left.operator='==='][left.left.operator='typeof'][left.left.argument.name='process'][left.right.value='object']) > BinaryExpression.right[operator='!=='][right.value='production'] > MemberExpression.left[property.name='NODE_ENV'] > MemberExpression.object[property.name='env']"
const noProcess = [
  {
    selector: `MemberExpression[object.name='process']:not(${GUARDED_NODE_ENV})`,
    message:
      'A page without a bundler has no `process`: write `DEV && process.env.NODE_ENV !== \'production\'` (DEV from @tandem/contract/dev; CONTRIBUTING.md, "Error messages").',
  },
  {
    selector: "MemberExpression[object.name=/^(globalThis|window|self|global)$/][property.name='process']",
    message:
      'A page without a bundler has no `process`: write `DEV && process.env.NODE_ENV !== \'production\'` (DEV from @tandem/contract/dev; CONTRIBUTING.md, "Error messages").',
  },
]

const hooksRules = Object.fromEntries(
  Object.keys(reactHooks.configs['recommended-latest'].rules).map((rule) => [rule, 'error']),
)

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.vitest/**',
      'coverage/**',
      'docs/api/**',
      'playground/dist/**',
      'bench/.out/**',
      '.tmp/**',
      'test/docs/.generated/**',
      'examples/next/.next/**',
      'examples/next/next-env.d.ts',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['packages/*/src/**/*.{ts,tsx}'],
    // node-env.d.ts is for the packages' builds alone, outside the repo's tsconfig (it says so).
    ignores: ['**/__tests__/**', '**/node-env.d.ts'],
    extends: [tseslint.configs.recommendedTypeCheckedOnly],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Passing on a rejection we did not make (a caller's, a platform's) as it is: wrapping it would lose it.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // Throwing a promise is how a component suspends (React's Suspense protocol, React 18 included).
      '@typescript-eslint/only-throw-error': [
        'error',
        { allowThrowingUnknown: true, allow: [{ from: 'lib', name: 'Promise' }] },
      ],
    },
  },
  // The packages that run in browsers (server and emulator run in Node alone; so do @tandem/next's
  // server entry and the token route). Devtools' on/off switch reads NODE_ENV bare, inside a `try`
  // of its callers that turns a page without a bundler's ReferenceError into "off" (devtools'
  // index.ts): a constant would not fold while esbuild parses, and its element's chunk would stay.
  {
    files: ['packages/{contract,core,elements,realtime,react,messenger,devtools,next}/src/**/*.{ts,tsx}'],
    ignores: [
      '**/__tests__/**',
      'packages/next/src/{server,server-client,token-route}.ts',
      'packages/devtools/src/{index.ts,react.tsx}',
    ],
    rules: { 'no-restricted-syntax': ['error', ...noProcess] },
  },
  // Tables keyed by names users choose (channels, presence, positions, tabs) are Maps: the
  // contract's channel names include `__proto__` and `constructor`, which a plain object turns into
  // its prototype or Object's own function. A `string`-keyed Record or index signature is how
  // such a table is typed, so neither is declared here; wire forms are read with Object.entries of
  // JSON.parse and written with Object.fromEntries (own properties, `__proto__` included).
  {
    files: ['packages/realtime/src/**/*.ts', 'packages/react/src/**/*.{ts,tsx}'],
    ignores: ['**/__tests__/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        // The browser rule above, again: a later block's no-restricted-syntax replaces an earlier one's.
        ...noProcess,
        {
          selector:
            "TSTypeReference[typeName.name='Record'] > TSTypeParameterInstantiation > TSStringKeyword:first-child",
          message:
            'A table keyed by names is a Map (`__proto__` and `constructor` are channel names); a wire shape names its keys.',
        },
        {
          // An open wire shape (`[field: string]: unknown`, a frame) is not a table: nothing is read from it by a name.
          selector:
            "TSIndexSignature:not([typeAnnotation.typeAnnotation.type='TSUnknownKeyword']) > Identifier > TSTypeAnnotation > TSStringKeyword",
          message:
            'A table keyed by names is a Map (`__proto__` and `constructor` are channel names); a wire shape names its keys.',
        },
      ],
      '@typescript-eslint/no-dynamic-delete': 'error',
    },
  },
  {
    files: [
      'packages/react/src/**/*.{ts,tsx}',
      'packages/devtools/src/**/*.tsx',
      'packages/next/src/**/*.tsx',
      'playground/src/**/*.{ts,tsx}',
    ],
    plugins: { 'react-hooks': reactHooks },
    rules: hooksRules,
  },
)
