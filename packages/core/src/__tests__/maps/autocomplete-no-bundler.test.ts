// A page without a bundler (native ESM, an import map) has no `process`: evaluating the maps entry
// must not read it; only an error's dev-only message does, when the error is built. Vitest's own
// module runner needs `process`, so the entry is bundled as is (no NODE_ENV replaced) and run in a
// fresh context, which has none.
import { build } from 'esbuild'
import { fileURLToPath } from 'node:url'
import { runInNewContext } from 'node:vm'
import { expect, it } from 'vitest'

it('@tandem/core/maps evaluates with no `process` global', async () => {
  const { outputFiles } = await build({
    entryPoints: [fileURLToPath(new URL('../../entries/maps.ts', import.meta.url))],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'maps',
    platform: 'neutral', // 'browser' would define NODE_ENV itself, as a bundler does
    mainFields: ['module', 'main'],
    logLevel: 'silent',
  })
  const names = ['AbortController', 'URL', 'URLSearchParams', 'TextEncoder', 'fetch', 'Headers', 'setTimeout']
  const sandbox: Record<string, unknown> = Object.fromEntries(names.map((n) => [n, Reflect.get(globalThis, n)]))
  runInNewContext(outputFiles[0]!.text, sandbox)
  expect('process' in sandbox).toBe(false)
  expect(typeof (sandbox.maps as { createAutocomplete?: unknown }).createAutocomplete).toBe('function')
})
