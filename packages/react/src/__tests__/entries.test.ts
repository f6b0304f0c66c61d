// @vitest-environment node
// @tandem/realtime is an optional peer: an app without it must be able to import @tandem/react.
import { build } from 'esbuild'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/** Every module the entry pulls in, bundled as an app would (React itself left out). */
async function inputsOf(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`../${entry}`, import.meta.url))],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['@tandem/source'],
    external: ['react', 'react-dom', 'react/jsx-runtime'],
    logLevel: 'silent',
  })
  return Object.keys(result.metafile.inputs)
}

describe('entry points', () => {
  it('the main entry needs no @tandem/realtime (nor partysocket): only core and React', async () => {
    const inputs = await inputsOf('index.ts')
    expect(inputs.some((p) => p.includes('packages/core/src/'))).toBe(true)
    expect(inputs.filter((p) => p.includes('packages/realtime/') || p.includes('partysocket'))).toEqual([])
  })

  it('@tandem/react/realtime brings the realtime client', async () => {
    const inputs = await inputsOf('realtime.ts')
    expect(inputs.some((p) => p.includes('packages/realtime/src/'))).toBe(true)
  })
})
