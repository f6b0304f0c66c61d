// @tandem/devtools (issue 31): its own size per chunk in a development build, within budget, and
// 0 bytes of devtools code in production: an esbuild app that calls mountDevtools, and the
// playground (which mounts <TandemDevtools />) built by Vite for production.
import { rm } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
// @ts-expect-error: plain ESM module without types, shared with the bench.
import * as size from '../devtools-size.mjs'
// @ts-expect-error: plain ESM module without types.
import { readFigures } from '../bundle-figures.mjs'

interface Row {
  id: string
  name: string
  source: string
  step: 'entry' | 'element' | 'panel'
  budget: number
}
interface Step {
  files: number
  min: number
  gzip: number
  modules: string[]
}
const { DEVTOOLS_ROWS, MARKERS, WITH_DEVTOOLS, bundleApp, chunks, playgroundProduction, productionDelta } = size
const rows = DEVTOOLS_ROWS as Row[]
const markers = MARKERS as string[]

const outDir = fileURLToPath(new URL('../../../node_modules/.cache/tandem-budgets-playground/', import.meta.url))
afterAll(() => rm(outDir, { recursive: true, force: true }))

describe("the devtools' own size (development build, min+gzip per chunk)", () => {
  it.each(rows)('$name', async (row) => {
    const steps = (await chunks(row.source)) as Record<Row['step'], Step>
    const { gzip, modules } = steps[row.step]
    const detail = `${row.name} is ${gzip} bytes min+gzip; budget ${row.budget}`
    expect(gzip, detail).toBeLessThanOrEqual(row.budget)
    expect(gzip, `${detail}: suspiciously small, is the chunk empty?`).toBeGreaterThan(row.budget / 4)
    const figures = readFigures() as { devtools?: { rows: { id: string; gzip: number }[] } }
    expect(
      figures.devtools?.rows.find((r) => r.id === row.id)?.gzip,
      `${detail}: bench/results/bundle.json says otherwise; run npm run bench -- bundle`,
    ).toBe(gzip)
    // Each step is what it says: the recorder with the entry (it records from the page's start), then
    // the element with its launcher, then the panel.
    if (row.step === 'entry' && row.id === 'entry') expect(modules).toContain('devtools/src/recorder.ts')
    if (row.step === 'element') {
      expect(modules).toContain('devtools/src/element.ts')
      expect(modules).not.toContain('devtools/src/recorder.ts')
    }
    if (row.step === 'panel') expect(modules.every((m) => m.startsWith('devtools/src/panel/'))).toBe(true)
  })
})

describe('0 bytes of devtools code in production', () => {
  it('an app that imports @tandem/devtools and calls mountDevtools: no chunk, no marker, a no-op', async () => {
    const delta = (await productionDelta()) as { files: number; min: number; gzip: number; markers: string[] }
    expect(delta.markers).toEqual([])
    expect(delta.files).toBe(0) // not even an unused chunk
    // The three functions' no-op bodies (today 292 bytes minified); the element alone is 13 kB.
    expect(delta.min).toBeLessThan(500)
  })

  it('the same search finds every marker in the same app built for development (the check can fail)', async () => {
    const development = ((await bundleApp(WITH_DEVTOOLS, 'development')) as string[]).join('\n')
    expect(markers.filter((m) => !development.includes(m))).toEqual([])
  })

  it('the playground, which mounts <TandemDevtools />, built by Vite for production holds no devtools marker', async () => {
    const built = (await playgroundProduction(outDir)) as { mounts: boolean; files: number; markers: string[] }
    expect(built.mounts, 'playground/src/main.tsx no longer mounts <TandemDevtools />: this check proves nothing').toBe(
      true,
    )
    expect(built.files).toBeGreaterThan(0)
    expect(built.markers, 'devtools code in the production build of the playground').toEqual([])
  })
})
