import { support, type ListQuery, type Resource } from '@tandem/core'
import { act, renderHook, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { useMutation, useResources, useTandem } from '../index.js'
import { setup } from './helpers.js'

const Q: ListQuery = { service: 'support', collection: 'resources', params: { limit: 5 } }

const onError = vi.fn()

function useRenameList() {
  const { cache } = useTandem()
  const list = useResources('support/resources', { limit: 5 }, { staleTime: Infinity })
  // `support(client)` works with either client style (the tests run both).
  const rename = useMutation(
    ({ id, name }: { id: string; name: string }, client) => support(client).resources.update(id, { name }),
    {
      // Optimistic: the list shows the new name at once; the returned rollback runs if the call fails.
      onMutate: ({ id, name }) =>
        cache.setData<Resource>(Q, (d) => ({
          pages: d!.pages.map((p) => ({ ...p, data: p.data.map((x) => (x.id === id ? { ...x, name } : x)) })),
        })),
      onError,
      invalidate: { service: 'support', collection: 'resources' },
    },
  )
  return { list, rename }
}

describe('useMutation', () => {
  it('an optimistic update shows at once and is rolled back when the call fails', async () => {
    const s = await setup()
    const { result } = renderHook(() => useRenameList(), { wrapper: s.wrapper })
    await waitFor(() => expect(result.current.list.status).toBe('success'))
    const first = result.current.list.items[0]!
    s.emu.faults.latency(200, { service: 'support', count: 1 }).failNext(1, { service: 'support', status: 500 })

    let done!: Promise<unknown>
    act(
      () =>
        void (done = result.current.rename.mutateAsync({ id: first.id, name: 'Optimistic' }).catch((e: unknown) => e)),
    )
    await waitFor(() => expect(result.current.list.items[0]?.name).toBe('Optimistic'))
    expect(result.current.rename.status).toBe('pending')
    const error = await act(() => done)
    expect(error).toBeInstanceOf(Error)
    expect(result.current.rename).toMatchObject({ status: 'error', error })
    expect(result.current.list.items[0]?.name).toBe(first.name) // rolled back
    expect(onError).toHaveBeenCalledExactlyOnceWith(error, { id: first.id, name: 'Optimistic' }, expect.any(Function))
    expect((await s.client.support.resources.get(first.id)).name).toBe(first.name)
  })

  it('success: resolves with the result, invalidates the list (one refetch), reset() goes back to idle', async () => {
    const s = await setup()
    const { result } = renderHook(
      () => ({
        list: useResources('support/resources', { limit: 5 }, { staleTime: Infinity }),
        remove: useMutation(
          (id: string, client) =>
            support(client)
              .resources.remove(id)
              .then(() => id),
          {
            invalidate: { service: 'support' },
          },
        ),
      }),
      { wrapper: s.wrapper },
    )
    await waitFor(() => expect(result.current.list.status).toBe('success'))
    const first = result.current.list.items[0]!
    const before = s.gets('/v1/resources')
    const removed = await act(() => result.current.remove.mutateAsync(first.id))
    expect(result.current.remove).toMatchObject({ status: 'success', data: removed, variables: first.id })
    // The mutation settles after the refetch, so the list is already the service's truth.
    expect(result.current.list.items.map((x) => x.id)).not.toContain(first.id)
    expect(result.current.list.items).toHaveLength(5)
    expect(s.gets('/v1/resources') - before).toBe(1)
    act(() => result.current.remove.reset())
    expect(result.current.remove).toMatchObject({ status: 'idle', data: undefined, error: null })
  })

  it('mutate() never rejects; the state follows the latest call', async () => {
    const s = await setup()
    const { result } = renderHook(
      () =>
        useMutation((n: number) =>
          n === 1 ? new Promise<number>((r) => setTimeout(() => r(1), 50)) : Promise.reject(new Error('two')),
        ),
      { wrapper: s.wrapper },
    )
    act(() => {
      result.current.mutate(1)
      result.current.mutate(2)
    })
    await waitFor(() => expect(result.current.status).toBe('error'))
    await act(() => new Promise((r) => setTimeout(r, 80))) // the older call settles late, and changes nothing
    expect(result.current).toMatchObject({ status: 'error', variables: 2 })
  })
})

describe('a modular client in the provider', () => {
  it('a service it does not carry fails with a TandemError that says what to import', async () => {
    const { createBaseClient } = await import('@tandem/core/client')
    const { TandemProvider } = await import('../index.js')
    const client = createBaseClient({ auth: { fetchToken: async () => ({ token: 't', expiresIn: 60 }) } })
    const { result } = renderHook(() => useTandem(), {
      wrapper: ({ children }) => <TandemProvider client={client}>{children}</TandemProvider>,
    })
    expect(() => result.current.client.maps).toThrow(/modular .*call maps\(client\) from @tandem\/core\/maps/)
    expect(() => result.current.client.realtime).toThrow(/realtimeRest\(client\) from @tandem\/core\/realtime-rest/)
    expect(() => result.current.client.collection).toThrow(/collection\(client\) from @tandem\/core\/client/)
    expect(result.current.client.auth).toBe(client.auth) // what it carries passes through
    expect(result.current.cache).toBeDefined()
  })
})
