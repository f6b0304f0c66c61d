// @vitest-environment node
import { build } from 'esbuild'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// What a bundler makes of the switch: with NODE_ENV=production the entries fold to "do nothing",
// and the element, the recorder and the panel are not in the bundle at all (0 bytes of devtools),
// though the recorder is imported statically by both entries.

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))

/** The entry's output and its chunks (code splitting on, as an app's build has it): the entry first. */
async function bundle(source: string, env: 'production' | 'development'): Promise<string[]> {
  return (await output(source, env)).map((f) => f.text)
}

async function output(source: string, env: 'production' | 'development') {
  const result = await build({
    stdin: { contents: source, resolveDir: ROOT, loader: 'tsx' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    splitting: true,
    outdir: '/out',
    write: false,
    logLevel: 'silent',
    conditions: ['@tandem/source'],
    external: ['react', 'react-dom', 'react/jsx-runtime'],
    define: { 'process.env.NODE_ENV': JSON.stringify(env) },
  })
  return result.outputFiles
}

/** What loads with the entry, before any `import()`: the entry and the chunks it imports statically. */
async function loadedAtOnce(source: string, env: 'production' | 'development' = 'development'): Promise<string> {
  const files = await output(source, env)
  const byName = new Map(files.map((f) => [f.path.slice(f.path.lastIndexOf('/') + 1), f.text]))
  const seen = new Set<string>()
  const visit = (text: string) => {
    for (const [, name] of text.matchAll(/(?:import|from)\s*"\.\/([^"]+)"/g)) {
      if (seen.has(name!) || !byName.has(name!)) continue
      seen.add(name!)
      visit(byName.get(name!)!)
    }
  }
  visit(files[0]!.text)
  return [files[0]!.text, ...[...seen].map((name) => byName.get(name))].join('\n')
}

const VANILLA = `import { createDevtoolsRecorder, mountDevtools, defineDevtools, emulatorActions } from '@tandem/devtools'
const recorder = createDevtoolsRecorder({})
export const off = mountDevtools({ recorder, actions: emulatorActions({ user: 'ada' }) }); defineDevtools()`
const REACT = `import { TandemDevtools } from '@tandem/devtools/react'; export { TandemDevtools }`

describe('the production switch, bundled', () => {
  it.each([
    ['@tandem/devtools', VANILLA],
    ['@tandem/devtools/react', REACT],
  ])('%s: nothing of the devtools in production, all of it in development', async (_, source) => {
    // What loads at once: the entry and esbuild's CommonJS interop helpers, which it puts in a chunk
    // of their own as soon as any import() target needs them (core's uploader: tus-js-client's
    // dependencies), imported even by an entry that uses none. The uploader's chunks are written,
    // never loaded.
    const production = await loadedAtOnce(source, 'production')
    // 'maxFrameChars': an option only the recorder reads (and its defaults hold).
    const markers = [
      'tandem-devtools',
      'Open Tandem devtools',
      'inspect',
      '/drop?user=',
      'no_provider',
      'maxFrameChars',
    ]
    for (const marker of markers) expect(production).not.toContain(marker)
    expect(production.length).toBeLessThan(1200) // the four functions' wrappers (and esbuild's helpers)
    const development = (await bundle(source, 'development')).join('\n')
    for (const marker of markers.slice(0, 2)) expect(development).toContain(marker)
    // The recorder loads with the entry, the element later: recording starts before the element's chunk is there.
    const atOnce = await loadedAtOnce(source)
    expect(atOnce).toContain('maxFrameChars')
    expect(atOnce).not.toContain('Open Tandem devtools')
  })
})
