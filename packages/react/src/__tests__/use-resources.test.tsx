import type { Resource } from '@tandem/core'
import { act, render, renderHook, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { useResources, useTandem } from '../index.js'
import { setup, untilRequests } from './helpers.js'

const LIST = '/v1/resources'

describe('useResources', () => {
  it('throws a clear error outside a provider', () => {
    expect(() => renderHook(() => useTandem())).toThrow(/TandemProvider/)
  })

  it('50 components mounting the same list make 1 request and show the same items', async () => {
    const s = await setup()
    function Row({ n }: { n: number }) {
      const { items, status } = useResources('support/resources', { limit: 5 })
      return (
        <li data-testid={`row-${n}`}>
          {status}:{items.map((x) => x.id).join(',')}
        </li>
      )
    }
    render(
      <ul>
        {Array.from({ length: 50 }, (_, n) => (
          <Row key={n} n={n} />
        ))}
      </ul>,
      { wrapper: s.wrapper },
    )
    await waitFor(() => expect(screen.getByTestId('row-49').textContent).toMatch(/^success:/))
    const texts = new Set(screen.getAllByRole('listitem').map((li) => li.textContent))
    expect(texts.size).toBe(1)
    expect(s.gets(LIST)).toBe(1)
  })

  it("keepPreviousData: shows the previous params' data while the new ones load, and never a late answer for old params", async () => {
    const s = await setup()
    const seen: { limit: number; count: number; placeholder: boolean; status: string }[] = []
    const { rerender } = renderHook(
      ({ limit }) => {
        const r = useResources('maps/resources', { limit }, { keepPreviousData: true })
        seen.push({ limit, count: r.items.length, placeholder: r.isPlaceholderData, status: r.status })
        return r
      },
      { wrapper: s.wrapper, initialProps: { limit: 2 } },
    )
    await waitFor(() => expect(seen.at(-1)).toMatchObject({ count: 2, status: 'success' }))

    // The limit-3 answer is slow; another component keeps it wanted, so it does arrive, after limit 4's.
    s.emu.faults.latency(300, { service: 'maps', count: 1 })
    const keeper = renderHook(() => useResources('maps/resources', { limit: 3 }), { wrapper: s.wrapper })
    rerender({ limit: 3 })
    expect(seen.at(-1)).toMatchObject({ limit: 3, count: 2, placeholder: true, status: 'success' })
    rerender({ limit: 4 })
    expect(seen.at(-1)).toMatchObject({ limit: 4, count: 2, placeholder: true })
    await waitFor(() => expect(seen.at(-1)).toMatchObject({ limit: 4, count: 4, placeholder: false }))
    await waitFor(() => expect(keeper.result.current.items).toHaveLength(3)) // the late answer
    expect(seen.at(-1)).toMatchObject({ limit: 4, count: 4 })
    // Every render shows its own key's data or, flagged, the data it showed before; never limit 3's.
    for (const r of seen) if (!r.placeholder && r.status === 'success') expect(r.count).toBe(r.limit)
    expect(seen.filter((r) => r.placeholder).every((r) => r.count === 2)).toBe(true)
    expect(seen.some((r) => r.count === 3)).toBe(false)
  })

  it('unmounting mid-request aborts the request', async () => {
    const s = await setup()
    await s.client.auth.getToken() // so the request itself is in flight, not the token fetch
    s.emu.faults.latency(2_000, { service: 'support', count: 1 })
    const { unmount, result } = renderHook(() => useResources('support/resources', { limit: 3 }), {
      wrapper: s.wrapper,
    })
    expect(result.current.isFetching).toBe(true)
    await waitFor(() => expect(s.emu.stats.byService.support).toBeGreaterThan(0)) // the service has it
    unmount()
    await untilRequests(s, 1, (e) => e.errorCode === 'aborted', 1_000)
    expect(s.requests.map((e) => e.errorCode)).toEqual(['aborted'])
    expect(
      s.client.cache.get({ service: 'support', collection: 'resources', params: { limit: 3 } }).getSnapshot(),
    ).toMatchObject({ status: 'pending', isFetching: false })
  })

  it('unmounting while the token is fetched sends no request at all', async () => {
    const s = await setup()
    const { unmount } = renderHook(() => useResources('support/resources', { limit: 3 }), { wrapper: s.wrapper })
    unmount()
    await s.client.auth.getToken()
    await s.client.support.resources.list({ limit: 1 }) // a later request, to have waited past the first
    expect(s.requests).toHaveLength(1)
  })

  it('focus and online revalidate only stale data', async () => {
    const s = await setup()
    const fresh = renderHook(() => useResources('support/resources', { limit: 2 }, { staleTime: 60_000 }), {
      wrapper: s.wrapper,
    })
    const stale = renderHook(() => useResources('maps/resources', { limit: 2 }), { wrapper: s.wrapper })
    await waitFor(() => expect(fresh.result.current.status).toBe('success'))
    await waitFor(() => expect(stale.result.current.status).toBe('success'))
    expect(s.gets()).toBe(2)
    act(() => void document.dispatchEvent(new Event('visibilitychange')))
    expect(stale.result.current.isFetching).toBe(true)
    expect(fresh.result.current.isFetching).toBe(false)
    await waitFor(() => expect(stale.result.current.isFetching).toBe(false))
    act(() => void window.dispatchEvent(new Event('online')))
    await waitFor(() => expect(stale.result.current.isFetching).toBe(false))
    expect(s.gets('/v1/resources')).toBe(4) // two revalidations of the stale list, none of the fresh one
    expect(fresh.result.current.isFetching).toBe(false)
  })

  it('fetchNextPage walks every page', async () => {
    const s = await setup()
    let total = 0
    for await (const _ of s.client.maps.resources.list({ limit: 100 })) total++
    const { result } = renderHook(() => useResources('maps/resources', { limit: 7 }, { staleTime: Infinity }), {
      wrapper: s.wrapper,
    })
    await waitFor(() => expect(result.current.status).toBe('success'))
    let pages = 1
    while (result.current.hasNextPage) {
      await act(() => result.current.fetchNextPage())
      pages++
    }
    expect(result.current.items).toHaveLength(total)
    expect(new Set(result.current.items.map((x) => x.id)).size).toBe(total)
    expect(pages).toBe(Math.ceil(total / 7))
    expect(result.current.data?.pages).toHaveLength(pages)
  })

  it('one render per data change; a refetch with equal data keeps every reference and renders only readers of isFetching', async () => {
    const s = await setup()
    let renders = 0
    let spinnerRenders = 0
    const q = { service: 'support', collection: 'resources', params: { limit: 3 } } as const
    const { result } = renderHook(
      () => {
        renders++
        const r = useResources('support/resources', { limit: 3 }, { staleTime: Infinity })
        void [r.status, r.items] // what a list reads; never isFetching
        return r
      },
      { wrapper: s.wrapper },
    )
    const spinner = renderHook(
      () => {
        spinnerRenders++
        const r = useResources('support/resources', { limit: 3 }, { staleTime: Infinity })
        void [r.status, r.items, r.isFetching]
        return r
      },
      { wrapper: s.wrapper },
    )
    await waitFor(() => expect(result.current.status).toBe('success'))
    await waitFor(() => expect(spinner.result.current.status).toBe('success'))
    const items = result.current.items
    renders = 0
    spinnerRenders = 0
    const requests = s.requests.length
    await act(() => s.client.cache.invalidate({ service: 'support' }))
    expect(s.requests.length).toBe(requests + 1) // the one refetch happened
    expect(renders).toBe(0) // render tracking: the data did not change, and this one never reads isFetching
    expect(spinnerRenders).toBe(2) // isFetching on, then off
    expect(result.current.items).toBe(items) // structural sharing across the refetch
    spinner.unmount()

    renders = 0
    act(
      () =>
        void s.client.cache.setData(q, (d) => ({
          pages: d!.pages.map((p) => ({ ...p, data: p.data.map((x) => ({ ...x, name: 'renamed' })) })),
        })),
    )
    expect(renders).toBe(1)
    expect(result.current.items.every((x) => x.name === 'renamed')).toBe(true)

    renders = 0
    const first = result.current.items[0] as Resource
    act(() =>
      s.client.cache.applyEvent({ service: 'support', collection: 'resources' }, { type: 'deleted', id: first.id }),
    )
    expect(renders).toBe(1)
    expect(result.current.items).toHaveLength(2)

    renders = 0
    act(() => s.client.cache.applyEvent({ service: 'maps' }, { type: 'deleted', id: 'x' })) // another collection
    expect(renders).toBe(0)
  })

  it('select derives data with a stable reference; initialData shows at once; enabled: false fetches nothing', async () => {
    const s = await setup()
    const page = await s.client.support.resources.list({ limit: 2 })
    s.requests.length = 0
    let renders = 0
    const { result, rerender } = renderHook(
      ({ enabled }) => {
        renders++
        return useResources(
          'support/resources',
          { limit: 2 },
          {
            enabled,
            initialData: page,
            select: (d) => d.pages.flatMap((p) => p.data.map((x) => x.name)),
          },
        )
      },
      { wrapper: s.wrapper, initialProps: { enabled: false } },
    )
    expect(result.current.status).toBe('success')
    expect(result.current.data).toEqual(page.data.map((x) => x.name))
    const names = result.current.data
    rerender({ enabled: false })
    expect(result.current.data).toBe(names) // the inline select ran again; equal output, same reference
    expect(s.gets()).toBe(0)
    rerender({ enabled: true })
    await waitFor(() => expect(result.current.isFetching).toBe(false))
    expect(s.gets(LIST)).toBe(1) // initialData counts as fetched now, and staleTime 0 revalidates it
    expect(result.current.data).toBe(names)
    expect(renders).toBeLessThan(8)
  })
})
