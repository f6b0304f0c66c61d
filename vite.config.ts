import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'
import { describeLoadFactor, WORKERS } from './test/utils/load-factor.js'
import { slack } from './test/utils/wait.js'

// Tests run from `src` through the `@tandem/source` export condition, so no build is
// needed. Vite 6+ needs the condition for both client and SSR (Node) resolution.
const conditions = ['@tandem/source', 'module', 'browser', 'development|production']
const ssrConditions = ['@tandem/source', 'module', 'node', 'development|production']

/** Per package: lines, statements, functions, branches (%), set from `npm run coverage` on 2026-11-24. */
const COVERAGE_FLOORS = Object.fromEntries(
  Object.entries({
    // Measured 2026-11-24 (lines, statements, functions, branches): core 98.5 97.1 98.2 94.2,
    // realtime 97.9 95.0 97.5 88.6, react 96.9 95.6 88.1 95.1, server 97.2 94.9 96.7 91.8,
    // emulator 97.3 95.1 97.7 89.4. A point or so under, for paths that depend on timing.
    core: [97, 96, 97, 93],
    realtime: [96, 94, 96, 87],
    react: [95, 94, 87, 94],
    server: [96, 93, 95, 90],
    emulator: [96, 94, 96, 88],
  }).map(([name, [lines, statements, functions, branches]]) => [
    `packages/${name}/src/**`,
    { lines, statements, functions, branches },
  ]),
)

// Type tests (`*.test-d.ts`, `expectTypeOf`) are checked by `npm run typecheck`: the root tsconfig
// includes packages/*/src, so a wrong expectation fails tsc. A Vitest `typecheck` pass ran tsc again
// per project (41 s of a run), for nothing tsc had not already said.

/**
 * The test files of a package that build their client through `createClientOfStyle` (their helpers
 * import __tests__/client-style.ts): the ones the `*-modular` projects run again through the modular
 * entries. The others do not touch the client's style, so a second run would repeat the first.
 */
function clientStyleTests(pkg: string): string[] {
  const dir = fileURLToPath(new URL(`./packages/${pkg}/src/__tests__/`, import.meta.url))
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.test\.tsx?$/.test(f))
    .filter((f) => /from '(\.\.?\/)+(helpers|client-style)\.js'/.test(readFileSync(dir + f, 'utf8')))
    .map((f) => `src/__tests__/${f.replaceAll('\\', '/')}`)
}

/**
 * The long soaks (the 200-tab cycle, the 5,000-message handover, the big chaos runs) are tests tagged
 * `soak`. `vitest run` (and `npm test`) skips them; `npm run test:soak` (`vitest run --mode soak
 * --tags-filter=soak`) runs only them, from the projects that have some, into its own report for `.ci/run`.
 */
const SOAK_PROJECTS = new Set(['reliability', 'e2e'])

/** Before every file of every project but e2e: real timers again after each test (isolation is off). */
const EACH_FILE = fileURLToPath(new URL('./test/utils/each-file.ts', import.meta.url))
/** The package's own after-each cleanup (its helpers' emulators, clients, checks); Vitest adds it after EACH_FILE. */
const withCleanup = ['src/__tests__/setup.ts']

export default defineConfig(({ mode }) => {
  const soak = mode === 'soak'
  // The one load factor (test/utils/load-factor.ts), measured once and handed to the workers through
  // the environment: every deadline below, and each test's `slack()`, scales with it. Said once a run.
  if (!process.env.TANDEM_LOAD_FACTOR_SAID) {
    process.env.TANDEM_LOAD_FACTOR_SAID = '1'
    console.info(describeLoadFactor())
  }
  return {
    resolve: {
      conditions,
      // Under happy-dom the 'browser' condition picks ws's stub; tests (and the emulator they start) need the real one.
      alias: [{ find: /^ws$/, replacement: fileURLToPath(new URL('./node_modules/ws/index.js', import.meta.url)) }],
    },
    ssr: { resolve: { conditions: ssrConditions, externalConditions: ['@tandem/source'] } },
    test: {
      reporters: ['default', ['json', { outputFile: soak ? '.vitest/soak.json' : '.vitest/report.json' }]],
      tags: [
        {
          name: 'soak',
          description: 'A long soak: runs in `npm run test:soak`, skipped in `npm test`.',
          // A default for soaks without a deadline of their own: each scales its deadline with its size.
          timeout: 600_000,
          // Skipped unless the mode is soak. (A `tagsFilter` here would not reach the e2e project, which
          // does not extend this config: `npm run test:soak` passes --tags-filter=soak on the command line.)
          skip: !soak,
        },
      ],
      // `npm run coverage` (not part of `npm test`: instrumenting slows the suite). The floors are per
      // package, a little under what the suite reaches today, so coverage can only ratchet up.
      coverage: {
        provider: 'v8',
        include: ['packages/*/src/**/*.{ts,tsx}'],
        exclude: ['**/__tests__/**'],
        reporter: ['text-summary', 'json-summary', 'html'],
        reportsDirectory: 'coverage',
        thresholds: COVERAGE_FLOORS,
      },
      // Vitest's default is one worker less than the cores: ONE on a 2-core machine, which ran the
      // suite file after file (734 s). Most files wait on sockets, timers or the browser rather than
      // burn CPU, so three at a time keep two cores busy. VITEST_MAX_WORKERS overrides it.
      maxWorkers: WORKERS,
      // One module graph per worker, not per file: a fresh one per file spent 145 of the suite's
      // CPU seconds importing the same modules again (Vitest's "import" time). What isolation gave
      // is kept by hand: hooks that shared helpers used to register at their top level (which would
      // now run for a worker's first file only) are registered per file by the projects' setup files;
      // files that stub globals or add listeners remove them in afterAll; timers go real after each test.
      isolate: false,
      setupFiles: [EACH_FILE],
      // 15 s on a quiet machine, times the load factor.
      testTimeout: slack(15_000),
      hookTimeout: slack(15_000),
      projects: (
        [
          {
            extends: true,
            test: { name: 'contract', root: 'packages/contract', environment: 'node' },
          },
          {
            extends: true,
            test: { name: 'server', root: 'packages/server', environment: 'node' },
          },
          {
            extends: true,
            test: { name: 'core', root: 'packages/core', environment: 'node', setupFiles: withCleanup },
          },
          // The tests that build a client, again through the modular entries (__tests__/client-style.ts).
          {
            extends: true,
            test: {
              name: 'core-modular',
              root: 'packages/core',
              environment: 'node',
              include: clientStyleTests('core'),
              setupFiles: withCleanup,
              env: { TANDEM_CLIENT_STYLE: 'modular' },
            },
          },
          {
            extends: true,
            test: { name: 'realtime', root: 'packages/realtime', environment: 'node', setupFiles: withCleanup },
          },
          {
            extends: true,
            test: {
              name: 'react',
              root: 'packages/react',
              environment: 'happy-dom',
              setupFiles: withCleanup,
            },
          },
          {
            extends: true,
            test: {
              name: 'react-modular',
              root: 'packages/react',
              environment: 'happy-dom',
              include: clientStyleTests('react'),
              setupFiles: withCleanup,
              env: { TANDEM_CLIENT_STYLE: 'modular' },
            },
          },
          // <tandem-devtools> and its recorder against the emulator, in happy-dom (custom elements, shadow DOM).
          {
            extends: true,
            test: { name: 'devtools', root: 'packages/devtools', environment: 'happy-dom', setupFiles: withCleanup },
          },
          // <tandem-messenger> and its own modules in happy-dom, against the emulator (its journeys run in Chromium: playground/e2e/messenger.test.ts).
          {
            extends: true,
            test: { name: 'messenger', root: 'packages/messenger', environment: 'happy-dom', setupFiles: withCleanup },
          },
          // @tandem/next against the emulator: server rendering in node, the browser's hydration in happy-dom (per file).
          {
            extends: true,
            test: { name: 'next', root: 'packages/next', environment: 'node', setupFiles: withCleanup },
          },
          {
            extends: true,
            test: { name: 'emulator', root: 'packages/emulator', environment: 'node', setupFiles: withCleanup },
          },
          // The repository's own scripts (scripts/__tests__): `npm pack`'s prepack, on a small repository of their own.
          {
            extends: true,
            test: { name: 'scripts', root: 'scripts', environment: 'node', include: ['__tests__/**/*.test.ts'] },
          },
          // The bundle size budgets (bench/src/bundle.mjs), measured from src.
          {
            extends: true,
            test: {
              name: 'budgets',
              root: 'bench',
              environment: 'node',
              include: ['src/__tests__/**/*.test.ts'],
              // Each test bundles a dozen apps with esbuild: 16 s beside three browser files on 2
              // cores (it timed out at 15 s), so a minute, or more on a busy machine (test/utils/load-factor.ts).
              testTimeout: Math.max(60_000, slack(20_000)),
            },
          },
          // The reliability and security suite (docs/reliability.md): faults, chaos, fuzzing, leaks, secrets.
          {
            extends: true,
            test: {
              name: 'reliability',
              root: 'test',
              environment: 'node',
              include: ['reliability/**/*.test.ts'],
              testTimeout: Math.max(120_000, slack(40_000)),
            },
          },
          // Every TypeScript block of the docs type-checked, and the runnable ones run on the emulator (test/docs).
          {
            extends: true,
            test: {
              name: 'docs',
              root: 'test',
              environment: 'node',
              include: ['docs/**/*.test.ts'],
              testTimeout: Math.max(30_000, slack(10_000)),
            },
          },
          // The playground in a real browser (Chromium through playwright-core): one build served by
          // `vite preview` to each file (e2e/global-setup.ts), and playground.test.ts on the dev server.
          // Not `extends`: the '@tandem/source' external condition would make Node load the dev
          // server's plugin deps (emulator, server) from .ts sources; they run from dist, as in `npm run dev`.
          {
            test: {
              name: 'e2e',
              root: 'playground',
              environment: 'node',
              include: ['e2e/**/*.test.ts'],
              globalSetup: ['e2e/global-setup.ts'],
              // A minute on a quiet machine; a busy one (the load factor, test/utils/load-factor.ts) gets more.
              testTimeout: Math.max(60_000, slack(40_000)),
              hookTimeout: Math.max(60_000, slack(40_000)),
            },
          },
          // examples/next in Chromium: one `next build`, then `next start` beside an emulator
          // (examples/next/e2e/global-setup.ts). Not `extends`, as e2e: Next runs the SDK from dist.
          {
            test: {
              name: 'next-e2e',
              root: 'examples/next',
              environment: 'node',
              include: ['e2e/**/*.test.ts'],
              globalSetup: ['e2e/global-setup.ts'],
              testTimeout: Math.max(60_000, slack(40_000)),
              hookTimeout: Math.max(60_000, slack(40_000)),
            },
          },
          // A fresh create-next-app app (cacheComponents on) with the SDK from its packed tarballs: one
          // `next build` and `next start` in the file's beforeAll (test/next-fresh/scaffold.ts), then Chromium.
          {
            test: {
              name: 'next-fresh',
              root: 'test/next-fresh',
              environment: 'node',
              include: ['*.test.ts'],
              testTimeout: Math.max(60_000, slack(40_000)),
              hookTimeout: Math.max(60_000, slack(40_000)),
            },
          },
        ] satisfies TestProjectInlineConfiguration[]
      ).filter((p) => !soak || SOAK_PROJECTS.has(p.test.name)),
    },
  }
})
