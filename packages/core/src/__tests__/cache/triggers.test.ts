import { describe, expect, it, vi } from 'vitest'
import { createTrigger } from '../../index.js'
import { setup } from '../helpers.js'
import { list, settled, track } from './helpers.js'

describe('revalidation triggers', () => {
  it('focus and reconnect triggers refetch watched entries only when stale', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const focus = createTrigger()
    const online = createTrigger()
    const { emu, client } = await setup({ client: { cache: { focusManager: focus, onlineManager: online } } })
    const count = () => emu.stats.byService.maps
    const w = track(client.cache, list('maps'), { staleTime: 30_000 })
    const quiet = track(client.cache, list('maps', { limit: 3 }), {
      staleTime: 30_000,
      refetchOnFocus: false,
      refetchOnReconnect: false,
    })
    await Promise.all([w.until(settled), quiet.until(settled)])
    const start = count()

    focus.fire()
    online.fire()
    expect(count()).toBe(start)
    expect(w.last().isFetching).toBe(false)

    vi.advanceTimersByTime(30_001)
    focus.fire()
    expect(w.last().isFetching).toBe(true)
    expect(quiet.last().isFetching).toBe(false)
    await w.until((s) => settled(s) && !s.isStale)
    expect(count() - start).toBe(1)

    vi.advanceTimersByTime(30_001)
    online.fire()
    await w.until((s) => settled(s) && !s.isStale)
    expect(count() - start).toBe(2)
    w.off()
    quiet.off()
    focus.fire() // nobody watches: nothing happens
    expect(count() - start).toBe(2)
  })
})
