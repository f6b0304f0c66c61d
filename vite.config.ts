import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// Tests run from `src` through the `@tandem/source` export condition, so no build is
// needed. Vite 6+ needs the condition for both client and SSR (Node) resolution.
const conditions = ['@tandem/source', 'module', 'browser', 'development|production']
const ssrConditions = ['@tandem/source', 'module', 'node', 'development|production']

export default defineConfig({
  resolve: {
    conditions,
    // Under happy-dom the 'browser' condition picks ws's stub; tests (and the emulator they start) need the real one.
    alias: [{ find: /^ws$/, replacement: fileURLToPath(new URL('./node_modules/ws/index.js', import.meta.url)) }],
  },
  ssr: { resolve: { conditions: ssrConditions, externalConditions: ['@tandem/source'] } },
  test: {
    reporters: ['default', ['json', { outputFile: '.vitest/report.json' }]],
    testTimeout: 15_000,
    hookTimeout: 15_000,
    projects: [
      { extends: true, test: { name: 'server', root: 'packages/server', environment: 'node' } },
      { extends: true, test: { name: 'core', root: 'packages/core', environment: 'node' } },
      { extends: true, test: { name: 'realtime', root: 'packages/realtime', environment: 'node' } },
      { extends: true, test: { name: 'react', root: 'packages/react', environment: 'happy-dom' } },
      { extends: true, test: { name: 'emulator', root: 'packages/emulator', environment: 'node' } },
      // The bundle size budgets (bench/src/bundle.mjs), measured from src.
      {
        extends: true,
        test: { name: 'budgets', root: 'bench', environment: 'node', include: ['src/__tests__/**/*.test.ts'] },
      },
      // The reliability and security suite (docs/reliability.md): faults, chaos, fuzzing, leaks, secrets.
      {
        extends: true,
        test: {
          name: 'reliability',
          root: 'test',
          environment: 'node',
          include: ['reliability/**/*.test.ts'],
          testTimeout: 120_000,
        },
      },
      // The playground in a real browser (Chromium through playwright-core) against its dev server.
      // Not `extends`: the '@tandem/source' external condition would make Node load the dev
      // server's plugin deps (emulator, server) from .ts sources; they run from dist, as in `npm run dev`.
      {
        test: {
          name: 'e2e',
          root: 'playground',
          environment: 'node',
          include: ['e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
})
