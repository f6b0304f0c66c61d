import {
  createAutocomplete,
  type AutocompleteOptions,
  type AutocompleteSelection,
  type AutocompleteSnapshot,
  type PlaceSuggestion,
} from '@tandem/core/maps'
import { useEffect, useLayoutEffect, useMemo, useRef, useSyncExternalStore } from 'react'
import { useTandem } from './use-tandem.js'

/** The snapshot of `createAutocomplete`, and what the input does with it. */
export interface PlaceAutocompleteResult extends AutocompleteSnapshot {
  /** The text as typed (an input's `onChange`). */
  setQuery: (text: string) => void
  /** The chosen suggestion's place and, for an address, its validated fields. */
  select: (suggestion: PlaceSuggestion) => Promise<AutocompleteSelection>
  clear: () => void
}

/** What the server renders, and the first render hydrates: nothing typed yet. */
const SERVER: AutocompleteSnapshot = { status: 'idle', query: '', suggestions: [], error: null, degraded: null }

// Before paint, so an input showing `query` never flashes empty when the store is replaced; on the
// server (no layout), a plain effect, which never runs there.
const useBeforePaint = typeof window === 'undefined' ? useEffect : useLayoutEffect

/**
 * Address and city suggestions as the user types, within the maps quota (`createAutocomplete` of
 * `@tandem/core/maps`): one store per client and options, its pending work cancelled on unmount.
 *
 * @example
 * ```tsx
 * const { query, suggestions, degraded, setQuery, select } = usePlaceAutocomplete({ near })
 * return <input value={query} onChange={(e) => setQuery(e.target.value)} />
 * ```
 */
export function usePlaceAutocomplete(options: AutocompleteOptions = {}): PlaceAutocompleteResult {
  const { client } = useTandem()
  const { debounceMs, minChars, limit, cacheSize, near, quota } = options
  const hasNear = near !== undefined
  const { lat, lng } = near ?? {}
  const hasQuota = quota !== undefined
  const { slowerBelow, slowerFactor, pausedBelow, pausedWaitMs, pauseMs } = quota ?? {}
  // Keyed by values, not by the options object: an inline `{ near: { lat, lng } }` keeps its store.
  const store = useMemo(
    () =>
      createAutocomplete(client, {
        debounceMs,
        minChars,
        limit,
        cacheSize,
        near: hasNear ? ({ lat, lng } as AutocompleteOptions['near']) : undefined,
        quota: hasQuota ? { slowerBelow, slowerFactor, pausedBelow, pausedWaitMs, pauseMs } : undefined,
      }),
    [
      client,
      debounceMs,
      minChars,
      limit,
      cacheSize,
      hasNear,
      lat,
      lng,
      hasQuota,
      slowerBelow,
      slowerFactor,
      pausedBelow,
      pausedWaitMs,
      pauseMs,
    ],
  )
  // A changed option (`near` following the map) makes a new store: what is being typed carries over
  // (its suggestions are asked again, for the new options). Not after a choice (idle): that would
  // ask, and reopen the list, on every map move.
  const carried = useRef('')
  useBeforePaint(() => {
    if (carried.current) store.setQuery(carried.current)
    // Unsubscribed (by useSyncExternalStore) and cleared, an unmounted store has nothing running:
    // no timer, no request, no listener on the client. Not destroyed, so StrictMode's second mount works.
    return () => {
      const { status, query } = store.getSnapshot()
      carried.current = status === 'idle' ? '' : query
      store.clear()
    }
  }, [store])
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, () => SERVER)
  return useMemo(
    () => ({ ...snapshot, setQuery: store.setQuery, select: store.select, clear: store.clear }),
    [snapshot, store],
  )
}
