import { describe, expect, it, vi } from 'vitest'
import { setup } from '../helpers.js'

// zustand's vanilla tests do the same: if core imported React anywhere, this mock would break it.
vi.mock('react', () => ({}))

describe('resource cache without a browser or React', () => {
  it('imports and runs in Node with no window, and attaches no platform listener', async () => {
    expect(typeof window).toBe('undefined')
    expect(typeof document).toBe('undefined')
    const core = await import('../../index.js')
    expect(typeof core.createResourceCache).toBe('function')

    const { emu, client } = await setup()
    const seen: unknown[] = []
    let resolve!: () => void
    const done = new Promise<void>((r) => (resolve = r))
    const off = client.cache.watch({ service: 'support', collection: 'resources', params: { limit: 2 } }, (s) => {
      seen.push(s)
      if (s.status === 'success') resolve()
    })
    await done
    expect(emu.stats.byService.support).toBe(1)
    off()
    client.cache.clear()
  })

  it('a cache works with any collection source (createResourceCache on its own)', async () => {
    const { client } = await setup()
    const cache = (await import('../../index.js')).createResourceCache({
      // The registry's paths only, typed; a source of its own takes any name.
      collection: (service, name) => client.collection(service, name as 'resources'),
      focusManager: { subscribe: () => () => {} },
    })
    const s = await cache.fetch({ service: 'maps', collection: 'resources', params: { limit: 1 } })
    expect(s.items).toHaveLength(1)
    cache.clear()
  })
})
