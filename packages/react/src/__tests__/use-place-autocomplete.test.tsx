// usePlaceAutocomplete against the emulator: suggestions as the user types, one request per pause,
// select, the store kept across renders with inline options, nothing left running on unmount, and
// the server's render idle.
import { act, renderHook, waitFor } from '@testing-library/react'
import { StrictMode, type ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { TandemProvider, usePlaceAutocomplete } from '../index.js'
import { setup } from './helpers.js'

const ADDRESS_TEXT = '1600 Amphitheatre Parkway, Mountain View, United States'
const isAutocomplete = (path: string) => path === '/v1/places:autocomplete'

describe('usePlaceAutocomplete', () => {
  it('suggests as the user types (one request for the pause), selects, and keeps its store across renders', async () => {
    const s = await setup()
    const asked = () => s.requests.filter((r) => isAutocomplete(r.path)).length
    const strict = ({ children }: { children?: ReactNode }) => <StrictMode>{s.wrapper({ children })}</StrictMode>
    const { result, rerender } = renderHook(
      () => usePlaceAutocomplete({ debounceMs: 50, near: { lat: 37.4, lng: -122.1 } }),
      { wrapper: strict },
    )
    expect(result.current).toMatchObject({ status: 'idle', query: '', suggestions: [], degraded: null })
    const { setQuery } = result.current
    act(() => {
      for (const text of ['1600 Am', '1600 Amp', '1600 Amph', '1600 Amphi']) result.current.setQuery(text)
    })
    expect(result.current).toMatchObject({ status: 'debouncing', query: '1600 Amphi' })
    await waitFor(() => expect(result.current.status).toBe('success'))
    expect(result.current.suggestions[0]?.text).toBe(ADDRESS_TEXT)
    expect(asked()).toBe(1)
    rerender() // inline options: the same store
    expect(result.current.setQuery).toBe(setQuery)

    let chosen: Awaited<ReturnType<typeof result.current.select>> | undefined
    await act(async () => {
      chosen = await result.current.select(result.current.suggestions[0]!)
    })
    expect(chosen?.place.countryCode).toBe('US')
    expect(chosen?.validation?.address.formattedAddress).toContain('1600 Amphitheatre Parkway')
    expect(result.current).toMatchObject({ status: 'idle', query: ADDRESS_TEXT, suggestions: [] })
  })

  it('unmounting cancels what is pending: its debounce timer is cleared, so nothing is asked', async () => {
    const s = await setup()
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const { result, unmount } = renderHook(() => usePlaceAutocomplete({ debounceMs: 30 }), { wrapper: s.wrapper })
      const idle = vi.getTimerCount()
      act(() => result.current.setQuery('Porto'))
      expect(vi.getTimerCount()).toBe(idle + 1) // the debounce
      unmount()
      expect(vi.getTimerCount()).toBe(idle)
      await vi.advanceTimersByTimeAsync(1_000)
      expect(s.requests.filter((r) => isAutocomplete(r.path))).toEqual([])
    } finally {
      vi.useRealTimers()
    }
  })

  it('a changed option (near following the map) keeps what is being typed, and asks for it with the new options', async () => {
    const s = await setup()
    const { result, rerender } = renderHook(
      ({ lat }: { lat: number }) => usePlaceAutocomplete({ debounceMs: 20, near: { lat, lng: -122.1 } }),
      { wrapper: s.wrapper, initialProps: { lat: 37.4 } },
    )
    act(() => result.current.setQuery('1600 Amphi'))
    await waitFor(() => expect(result.current.status).toBe('success'))
    const { setQuery } = result.current
    rerender({ lat: 37.5 }) // the map moved: a new store
    expect(result.current.setQuery).not.toBe(setQuery)
    expect(result.current).toMatchObject({ query: '1600 Amphi', status: 'debouncing' })
    await waitFor(() => expect(result.current.status).toBe('success'))
    expect(result.current.suggestions[0]?.text).toBe(ADDRESS_TEXT)
    expect(s.requests.filter((r) => isAutocomplete(r.path))).toHaveLength(2)
  })

  it('the server renders it idle', async () => {
    const s = await setup()
    function Field() {
      const { query, status } = usePlaceAutocomplete()
      return <output>{`${status}:${query}`}</output>
    }
    const html = renderToString(
      <TandemProvider client={s.client}>
        <Field />
      </TandemProvider>,
    )
    expect(html).toContain('idle:')
  })
})
