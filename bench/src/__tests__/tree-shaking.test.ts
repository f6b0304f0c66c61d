// What an app does not import, it does not ship: the modules each bundle keeps, from esbuild's
// metafile (`measure(...).modules`), built from `src` as the budgets are.
import { describe, expect, it } from 'vitest'
// @ts-expect-error: plain ESM module without types; the bench and this test share its entries.
import { USE_CASES, measure } from '../bundle.mjs'

interface Entry {
  name: string
  source: string
}

/** The modules that put bytes into the bundle of `source`. */
async function kept(source: string): Promise<string[]> {
  const { modules } = (await measure(source, { conditions: ['@tandem/source'] })) as { modules: [string, number][] }
  return modules.filter(([, bytes]) => bytes > 0).map(([path]) => path)
}

const MAPS_CALLS = {
  geocode: 'core/src/services/maps/geocode.ts',
  computeRoute: 'core/src/services/maps/route.ts',
  searchPlaces: 'core/src/services/maps/places.ts',
  validateAddress: 'core/src/services/maps/address.ts',
  getMapView: 'core/src/services/maps/map-view.ts',
}

/** Bundled only by apps that use them. */
const NOT_FOR_MAPS = [
  'core/src/collection.ts', // the generic collection (and the pages, but for searchPlaces)
  'core/src/services/maps.ts', // maps(client), every call on one object
  'core/src/cache/defaults.ts',
  'core/src/services/support.ts',
  'core/src/services/realtime.ts',
]

describe('a maps-only app ships only the maps calls it imports', () => {
  it('the maps-only use case (createClient + geocode) keeps neither the other calls, nor the collection, nor the cache defaults', async () => {
    const entry = (USE_CASES as Entry[]).find((u) => u.name.startsWith('maps-only'))!
    const modules = await kept(entry.source)
    expect(modules).toContain(MAPS_CALLS.geocode)
    const others = Object.values(MAPS_CALLS).filter((m) => m !== MAPS_CALLS.geocode)
    expect(modules.filter((m) => [...others, ...NOT_FOR_MAPS].includes(m))).toEqual([])
    expect(modules.filter((m) => m.includes('/cache/'))).toEqual([])
  })

  it.each(Object.entries(MAPS_CALLS))('%s alone keeps its own module and none of the others', async (name, own) => {
    const modules = await kept(
      `import { createClient } from '@tandem/core/client'; import { ${name} } from '@tandem/core/maps'; export const f = (o, p) => ${name}(createClient(o), p)`,
    )
    expect(modules).toContain(own)
    expect(modules.filter((m) => m !== own && Object.values(MAPS_CALLS).includes(m))).toEqual([])
    // searchPlaces pages through listPages (in collection.ts); no other call keeps that module.
    const never = name === 'searchPlaces' ? NOT_FOR_MAPS.slice(1) : NOT_FOR_MAPS
    expect(modules.filter((m) => never.includes(m))).toEqual([])
  })

  it('maps(client) still gathers every call and its resources collection', async () => {
    const modules = await kept(
      `import { createClient } from '@tandem/core/client'; import { maps } from '@tandem/core/maps'; export const m = (o) => maps(createClient(o))`,
    )
    expect(modules).toEqual(expect.arrayContaining([...Object.values(MAPS_CALLS), 'core/src/collection.ts']))
  })
})

describe('an app that passes no logger ships no logger', () => {
  it('the maps-only use case keeps no core/src/logger.ts (createLogger, its level table); redaction stays', async () => {
    const entry = (USE_CASES as Entry[]).find((u) => u.name.startsWith('maps-only'))!
    const modules = await kept(entry.source)
    expect(modules).not.toContain('core/src/logger.ts')
    expect(modules).toContain('core/src/redact.ts') // error messages are still scrubbed
  })

  it('a modular app given logTo(console) keeps it', async () => {
    const modules = await kept(
      `import { createClient, logTo } from '@tandem/core/client'; import { geocode } from '@tandem/core/maps'; export const g = (o, q) => geocode(createClient({ ...o, logger: logTo(console) }), q)`,
    )
    expect(modules).toContain('core/src/logger.ts')
  })
})
