// useQuery: any typed call, cached by key, against the emulator: dedupe, abort on key change and
// unmount, keep-previous-data, Suspense, and TandemErrors.
import { maps } from '@tandem/core'
import { act, render, renderHook, screen, waitFor } from '@testing-library/react'
import { Suspense } from 'react'
import { describe, expect, it } from 'vitest'
import { useQuery } from '../index.js'
import { setup } from './helpers.js'

const geocode = (text: string) =>
  [
    ['maps', 'geocode', text],
    (client: Parameters<Parameters<typeof useQuery>[1]>[0], { signal }: { signal: AbortSignal }) =>
      maps(client).geocode({ query: text }, { signal }),
  ] as const

describe('useQuery', () => {
  it('one request per key however many components ask; data typed from the call', async () => {
    const s = await setup()
    const calls = () => s.requests.filter((r) => r.path === '/v1/geocode').length
    const { result } = renderHook(
      () => {
        const a = useQuery(...geocode('Porto'))
        const b = useQuery(...geocode('Porto'))
        return { a, b }
      },
      { wrapper: s.wrapper },
    )
    await waitFor(() => expect(result.current.a.status).toBe('success'))
    expect(result.current.a.data?.results[0]?.name).toBe('Porto')
    expect(result.current.b.data).toBe(result.current.a.data)
    expect(calls()).toBe(1)
  })

  it('a key change aborts the superseded call; keepPreviousData shows the old answer meanwhile', async () => {
    const s = await setup()
    const signals: AbortSignal[] = []
    const { result, rerender } = renderHook(
      ({ text }) =>
        useQuery(
          ['maps', 'geocode', text],
          (client, { signal }) => {
            signals.push(signal)
            return maps(client).geocode({ query: text }, { signal })
          },
          { keepPreviousData: true },
        ),
      { wrapper: s.wrapper, initialProps: { text: 'Porto' } },
    )
    await waitFor(() => expect(result.current.status).toBe('success'))
    s.emu.faults.latency(300, { service: 'maps' }) // the next answers are slow
    rerender({ text: 'Lisbon' })
    expect(result.current.data?.results[0]?.name).toBe('Porto') // previous, while Lisbon loads
    expect(result.current.isPlaceholderData).toBe(true)
    rerender({ text: 'Madrid' })
    await waitFor(() => expect(signals[1]?.aborted).toBe(true)) // nobody watches Lisbon any more
    await waitFor(() => expect(result.current.data?.results[0]?.name).toBe('Madrid'), { timeout: 3_000 })
    expect(result.current.isPlaceholderData).toBe(false)
  })

  it('unmount aborts the call; a failing call is a TandemError with its request id', async () => {
    const s = await setup()
    const signals: AbortSignal[] = []
    s.emu.faults.latency(300, { service: 'maps' })
    const { unmount } = renderHook(
      () =>
        useQuery(['maps', 'geocode', 'Oslo'], (client, { signal }) => {
          signals.push(signal)
          return maps(client).geocode({ query: 'Oslo' }, { signal })
        }),
      { wrapper: s.wrapper },
    )
    await waitFor(() => expect(signals).toHaveLength(1))
    unmount()
    await waitFor(() => expect(signals[0]!.aborted).toBe(true))

    s.emu.faults.failNext(1, { status: 404, code: 'not_found', service: 'maps' })
    const failed = renderHook(() => useQuery(...geocode('Nowhere')), { wrapper: s.wrapper })
    await waitFor(() => expect(failed.result.current.status).toBe('error'), { timeout: 3_000 })
    expect(failed.result.current.error).toMatchObject({ name: 'ApiError', status: 404 })
    expect((failed.result.current.error as { requestId?: string }).requestId).toMatch(/\S/)
  })

  it('suspense: suspends until the answer, then renders it', async () => {
    const s = await setup()
    function Place() {
      const { data } = useQuery(...geocode('Paris'), { suspense: true })
      return <p>{data?.results[0]?.name}</p>
    }
    await act(async () => {
      render(
        <s.wrapper>
          <Suspense fallback={<p>loading</p>}>
            <Place />
          </Suspense>
        </s.wrapper>,
      )
    })
    await waitFor(() => expect(screen.getByText('Paris')).toBeTruthy())
  })
})
