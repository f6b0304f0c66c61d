// The entry points: what each exports, and that the helpers only sibling packages need left the
// public index (issue 16). What each entry ships is measured by the bundle budgets.
import { describe, expect, it } from 'vitest'

const INTERNAL = ['fullJitter', 'sleep', 'redact', 'createEmitter', 'hashQuery', 'replaceEqualDeep', 'createPool']

describe('entry points', () => {
  it('the public index has no internal helper; @tandem/core/internal has them all', async () => {
    const index = Object.keys(await import('../index.js'))
    const internal = Object.keys(await import('../entries/internal.js'))
    for (const name of INTERNAL) {
      expect(index, name).not.toContain(name)
      expect(internal, name).toContain(name)
    }
    expect(index.length).toBeLessThan(67) // the index had 67 names before issue 16
  })

  it('each modular entry exports its factory, and the full client is built from the same ones', async () => {
    const client = await import('../entries/client.js')
    expect(Object.keys(client)).toEqual(
      expect.arrayContaining(['createBaseClient', 'createTokenProvider', 'isTandemError']),
    )
    expect(Object.keys(client)).not.toEqual(expect.arrayContaining(['maps']))
    expect(typeof (await import('../entries/maps.js')).maps).toBe('function')
    const calls = ['geocode', 'computeRoute', 'searchPlaces', 'validateAddress', 'getMapView']
    expect(Object.keys(await import('../entries/maps.js'))).toEqual(expect.arrayContaining(calls))
    expect(Object.keys(client)).toContain('collection')
    expect(typeof (await import('../entries/support.js')).support).toBe('function')
    expect(typeof (await import('../entries/realtime-rest.js')).realtimeRest).toBe('function')
    expect(typeof (await import('../entries/cache.js')).getCache).toBe('function')

    const auth = { fetchToken: async () => ({ token: 't', expiresIn: 60 }) }
    expect(client.createClient).toBe(client.createBaseClient) // the old name, deprecated for one minor
    const modular = client.createBaseClient({ auth })
    expect('maps' in modular).toBe(false)
    const { getCache } = await import('../entries/cache.js')
    expect(modular.cacheSlot.cache).toBeUndefined() // made on first use, not before
    expect(getCache(modular)).toBe(getCache(modular)) // made once
    expect(modular.cacheSlot.cache).toBe(getCache(modular)) // owned by the client, where anyone can see it
    const full = (await import('../index.js')).withServices(modular)
    expect(full.cache).toBe(getCache(modular)) // one cache for the client, whichever way it is reached
    expect(getCache(full)).toBe(getCache(modular))
    expect(getCache({ ...modular })).toBe(getCache(modular)) // any composition of it holds the same slot
    expect(Object.keys(full.maps).sort()).toEqual(
      Object.keys((await import('../entries/maps.js')).maps(modular)).sort(),
    )
  })

  it('DEFAULTS still lists every default of core; the cache defaults live with the cache and are the same object', async () => {
    const { DEFAULTS, CACHE_DEFAULTS } = await import('../index.js')
    const cache = await import('../entries/cache.js')
    expect(cache.CACHE_DEFAULTS).toBe(CACHE_DEFAULTS)
    expect(DEFAULTS.cache).toBe(CACHE_DEFAULTS)
    expect(Object.keys(DEFAULTS).sort()).toEqual(
      [
        'attemptTimeoutMs',
        'autocomplete',
        'baseUrl',
        'cache',
        'helpSearchDebounceMs',
        'leaseReleaseMs',
        'liveRefetchMs',
        'logLevel',
        'maxPages',
        'maxResponseBytes',
        'persist',
        'rateLimit',
        'rateLimitSafetyMs',
        'retry',
        'token',
        'typingTimeoutMs',
      ].sort(),
    )
    expect(CACHE_DEFAULTS).toMatchObject({ staleTime: 0, gcTime: 300_000, hydrateFreshMs: 2_000 })
    const persist = await import('../entries/persist.js')
    expect(DEFAULTS.persist).toBe(persist.PERSIST_DEFAULTS)
    const maps = await import('../entries/maps.js')
    expect(DEFAULTS.autocomplete).toBe(maps.AUTOCOMPLETE_DEFAULTS)
  })
})
