// The observer a UI binding sits on, driven with no UI at all: React is mocked away (as zustand's
// vanilla tests do), so importing or running anything here that needed it would fail.
import { until } from '../../../../../test/utils/wait.js'
import { describe, expect, it, vi } from 'vitest'
import { createEntryObserver, type ListSnapshot, type ResourceEntry } from '../../index.js'
import { setup } from '../helpers.js'

vi.mock('react', () => ({}))

describe('entry observer (no React)', () => {
  it('React is mocked away here: any use of it would throw', async () => {
    const react = (await import('react')) as Record<string, unknown>
    expect(() => react.useSyncExternalStore).toThrow(/useSyncExternalStore/)
  })

  it('fetches on subscribe, derives data with select, and keeps the derived reference across an equal refetch', async () => {
    const { client } = await setup()
    const entry = client.cache.get({ service: 'support', collection: 'resources', params: { limit: 3 } })
    const select = (d: { pages: { data: { id: string }[] }[] }) => d.pages.flatMap((p) => p.data.map((x) => x.id))
    const observer = createEntryObserver<ListSnapshot, string[]>(entry, { select })
    let notified = 0
    const off = observer.subscribe(() => notified++)
    await until(observer.subscribe, () => observer.getCurrentResult().status === 'success')
    const ids = observer.getCurrentResult().data
    expect(ids).toHaveLength(3)
    await entry.refetch()
    expect(observer.getCurrentResult().data).toBe(ids) // structurally shared
    expect(notified).toBeGreaterThan(0)
    off()
  })

  it('render tracking: a reader of `items` only is not told about isFetching; a reader of isFetching is', async () => {
    const { client } = await setup()
    const entry = client.cache.get({ service: 'maps', collection: 'resources', params: { limit: 2 } })
    const items = createEntryObserver<ListSnapshot>(entry, { staleTime: Infinity })
    const spinner = createEntryObserver<ListSnapshot>(entry, { staleTime: Infinity })
    let itemsNotified = 0
    let spinnerNotified = 0
    const offs = [items.subscribe(() => itemsNotified++), spinner.subscribe(() => spinnerNotified++)]
    await until(items.subscribe, () => items.getCurrentResult().status === 'success')
    void items.trackResult(items.getCurrentResult()).items // reads items (and nothing else)
    void spinner.trackResult(spinner.getCurrentResult()).isFetching
    itemsNotified = 0
    spinnerNotified = 0
    await entry.refetch() // equal data: isFetching flips on and off, items keep their reference
    expect(itemsNotified).toBe(0)
    expect(spinnerNotified).toBe(2)
    offs.forEach((off) => off())
  })

  it('keepPreviousData: a new key shows the data this reader showed before, flagged, until its own arrives', async () => {
    const { client, emu } = await setup()
    const key = (limit: number) =>
      client.cache.get({
        service: 'support',
        collection: 'resources',
        params: { limit },
      }) as ResourceEntry<ListSnapshot>
    const observer = createEntryObserver<ListSnapshot>(key(2), { keepPreviousData: true })
    const off = observer.subscribe(() => {})
    await until(observer.subscribe, () => observer.getCurrentResult().items.length === 2)
    emu.faults.latency(200, { service: 'support', count: 1 })
    const next = key(4)
    const optimistic = observer.getOptimisticResult(next, { keepPreviousData: true })
    expect(optimistic).toMatchObject({ isPlaceholderData: true, status: 'success' })
    expect(optimistic.items).toHaveLength(2)
    observer.setOptions(next, { keepPreviousData: true })
    await until(observer.subscribe, () => observer.getCurrentResult().items.length === 4)
    expect(observer.getCurrentResult().isPlaceholderData).toBe(false)
    off()
  })

  it('enabled: false subscribes to nothing and fetches nothing; enabling fetches', async () => {
    const { client } = await setup()
    let requests = 0
    client.on('request', () => requests++)
    const entry = client.cache.get({ service: 'support', collection: 'resources', params: { limit: 1 } })
    const observer = createEntryObserver<ListSnapshot>(entry, { enabled: false })
    const off = observer.subscribe(() => {})
    await Promise.resolve()
    expect(requests).toBe(0)
    expect(observer.getCurrentResult().status).toBe('pending')
    observer.setOptions(entry, { enabled: true })
    await until(observer.subscribe, () => observer.getCurrentResult().status === 'success')
    expect(requests).toBe(1)
    off()
  })
})
