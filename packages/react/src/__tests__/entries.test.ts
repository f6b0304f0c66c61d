// @vitest-environment node
// @tandem/realtime is an optional peer: an app without it must be able to import @tandem/react.
import { build } from 'esbuild'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/** The entry bundled as an app would (React itself left out), minified or not. */
function bundle(entry: string, minify: boolean) {
  return build({
    entryPoints: [fileURLToPath(new URL(`../${entry}`, import.meta.url))],
    bundle: true,
    write: false,
    minify,
    outdir: 'out',
    metafile: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['@tandem/source'],
    external: ['react', 'react-dom', 'react/jsx-runtime'],
    logLevel: 'silent',
  })
}

/** Every module the entry pulls in. */
async function inputsOf(entry: string): Promise<string[]> {
  return Object.keys((await bundle(entry, false)).metafile.inputs)
}

/** What each module adds to the entry's minified bundle (a module only imported from is 0). */
async function bytesOf(entry: string): Promise<[string, number][]> {
  const result = await bundle(entry, true)
  return Object.values(result.metafile.outputs).flatMap((o) =>
    Object.entries(o.inputs).map(([p, i]): [string, number] => [p, i.bytesInOutput]),
  )
}

describe('entry points', () => {
  it('the main entry needs no @tandem/realtime (nor partysocket): only core and React', async () => {
    const inputs = await inputsOf('index.ts')
    expect(inputs.some((p) => p.includes('packages/core/src/'))).toBe(true)
    expect(inputs.filter((p) => p.includes('packages/realtime/') || p.includes('partysocket'))).toEqual([])
  })

  it('@tandem/react/persist is bindings only: neither it nor the main entry ships persistence (idb-keyval)', async () => {
    const persisting = ([p, bytes]: [string, number]) =>
      bytes > 0 && (p.includes('packages/core/src/persist/') || p.includes('idb-keyval'))
    expect((await bytesOf('persist.ts')).filter(persisting)).toEqual([])
    expect((await bytesOf('index.ts')).filter(persisting)).toEqual([])
    expect((await bytesOf('persist.ts')).some(([p, bytes]) => p.endsWith('persist-gate.tsx') && bytes > 0)).toBe(true)
  })

  it('@tandem/react/push is a binding only: neither it nor the main entry ships push (@tandem/core/push)', async () => {
    const pushing = ([p, bytes]: [string, number]) => bytes > 0 && p.includes('packages/core/src/push/')
    expect((await bytesOf('push.ts')).filter(pushing)).toEqual([])
    expect((await bytesOf('index.ts')).filter(pushing)).toEqual([])
    expect((await bytesOf('push.ts')).some(([p, bytes]) => p.endsWith('use-push.ts') && bytes > 0)).toBe(true)
  })

  it('@tandem/react/realtime brings the realtime client', async () => {
    const inputs = await inputsOf('realtime.ts')
    expect(inputs.some((p) => p.includes('packages/realtime/src/'))).toBe(true)
  })
})
