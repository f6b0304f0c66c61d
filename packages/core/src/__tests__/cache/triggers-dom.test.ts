// @vitest-environment happy-dom
import { createRequire } from 'node:module'
import { describe, expect, it, vi } from 'vitest'
import { until } from '../../../../../test/utils/wait.js'
import type { ListQuery, ListSnapshot } from '../../index.js'
import { setup } from '../helpers.js'

// Under happy-dom, `ws` resolves to its browser stub; the emulator (Node) needs the real one.
vi.mock('ws', () => {
  const ws = createRequire(import.meta.url)('ws') as Record<string, unknown>
  return { ...ws, default: ws }
})

describe('resource cache in a browser', () => {
  it('the default triggers attach on first subscribe, refetch on visibilitychange and online, and detach when unused', async () => {
    const onDocument = vi.spyOn(document, 'addEventListener')
    const onWindow = vi.spyOn(window, 'addEventListener')
    const offDocument = vi.spyOn(document, 'removeEventListener')
    const offWindow = vi.spyOn(window, 'removeEventListener')
    const attached = () => onDocument.mock.calls.filter(([t]) => t === 'visibilitychange').length
    const { client } = await setup()
    const q: ListQuery = { service: 'maps', collection: 'resources', params: { limit: 3 } }
    await client.cache.fetch(q)
    expect(attached()).toBe(0) // creating a client and fetching attaches nothing

    const seen: ListSnapshot[] = []
    const waiters = new Set<() => void>()
    const off = client.cache.watch(q, (s) => {
      seen.push(s)
      waiters.forEach((w) => w())
    })
    const on = (cb: () => void) => {
      waiters.add(cb)
      return () => void waiters.delete(cb)
    }
    /** The next notification after now that shows no fetch in flight. */
    const refetched = () => {
      const from = seen.length
      return until(on, () => seen.length > from && seen.at(-1)?.isFetching === false, 5_000, 'a refetch')
    }
    await refetched() // the mount revalidation (staleTime 0)
    expect(attached()).toBe(1)
    expect(onWindow.mock.calls.map(([t]) => t)).toEqual(expect.arrayContaining(['focus', 'online', 'offline']))
    // Requests as the client saw them: happy-dom's fetch adds CORS preflights the emulator counts too.
    let gets = 0
    client.on('request', (e) => void (e.method === 'GET' && gets++))
    const count = () => gets

    let before = count()
    let done = refetched()
    document.dispatchEvent(new Event('visibilitychange'))
    expect(seen.at(-1)?.isFetching).toBe(true)
    await done
    expect(count() - before).toBe(1)

    window.dispatchEvent(new Event('offline'))
    window.dispatchEvent(new Event('focus'))
    expect(seen.at(-1)?.isFetching).toBe(false) // offline: focus does not refetch

    before = count()
    done = refetched()
    window.dispatchEvent(new Event('online'))
    await done
    expect(count() - before).toBe(1)

    off()
    expect(offDocument.mock.calls.filter(([t]) => t === 'visibilitychange')).toHaveLength(1)
    expect(offWindow.mock.calls.map(([t]) => t)).toEqual(expect.arrayContaining(['focus', 'online', 'offline']))
    before = count()
    document.dispatchEvent(new Event('visibilitychange'))
    window.dispatchEvent(new Event('online'))
    expect(count()).toBe(before)
    client.cache.clear()
  })
})
