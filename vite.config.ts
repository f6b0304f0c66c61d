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
    ],
  },
})
