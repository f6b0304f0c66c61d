// Core needs no React (as zustand proves of its vanilla store): with `react` made unimportable,
// the client, the cache, an observer, a call query and the live binding all work.
import { describe, expect, it, vi } from 'vitest'

vi.mock('react', () => {
  throw new Error('@tandem/core imported react')
})

describe('core without React', () => {
  it('an observer over a call query fetches, selects and notifies', async () => {
    const { callQuery, createEntryObserver, createClient, getCache } = await import('../index.js')
    const client = createClient({ auth: { fetchToken: async () => ({ token: 't', expiresIn: 60 }) } })
    let calls = 0
    const query = callQuery(['answer'], async () => ++calls * 42)
    const entry = getCache(client).get(query)
    const observer = createEntryObserver(entry, { select: (n: number) => `answer ${n}` })
    const seen: unknown[] = []
    const off = observer.subscribe(() => seen.push(observer.getCurrentResult().data))
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toBe('answer 42'))
    expect(seen).toContain('answer 42')
    expect(calls).toBe(1)
    off()
  })
})
