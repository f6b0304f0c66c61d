// @vitest-environment node
import { build } from 'esbuild'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// What a bundler makes of the switch: with NODE_ENV=production the entries fold to "do nothing",
// and the element, the recorder and the panel are not in the bundle at all (0 bytes of devtools).

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))

/** The entry's output and its chunks (code splitting on, as an app's build has it). */
async function bundle(source: string, env: 'production' | 'development'): Promise<string[]> {
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
  return result.outputFiles.map((f) => f.text)
}

const VANILLA = `import { mountDevtools, defineDevtools, emulatorActions } from '@tandem/devtools'
export const off = mountDevtools({ actions: emulatorActions({ user: 'ada' }) }); defineDevtools()`
const REACT = `import { TandemDevtools } from '@tandem/devtools/react'; export { TandemDevtools }`

describe('the production switch, bundled', () => {
  it.each([
    ['@tandem/devtools', VANILLA],
    ['@tandem/devtools/react', REACT],
  ])('%s: nothing of the devtools in production, all of it in development', async (_, source) => {
    const files = await bundle(source, 'production')
    expect(files).toHaveLength(1) // no chunk either, not even an unused one
    const [production] = files as [string]
    for (const marker of ['tandem-devtools', 'Open Tandem devtools', 'inspect', '/drop?user=', 'no_provider'])
      expect(production).not.toContain(marker)
    expect(production.length).toBeLessThan(500) // the three functions' wrappers
    const development = (await bundle(source, 'development')).join('\n')
    expect(development).toContain('Open Tandem devtools')
    expect(development).toContain('tandem-devtools')
  })
})
