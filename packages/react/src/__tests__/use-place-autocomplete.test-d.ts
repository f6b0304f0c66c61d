import type { AutocompleteSelection, Degraded, PlaceSuggestion, TandemError } from '@tandem/core'
import { describe, expectTypeOf, it } from 'vitest'
import { usePlaceAutocomplete, type PlaceAutocompleteResult } from '../index.js'

// Nothing here runs: the hook is called only for its types.
describe('usePlaceAutocomplete', () => {
  it('returns the snapshot and the store’s methods', () => {
    const ac = usePlaceAutocomplete({ near: { lat: 37.4, lng: -122.1 }, limit: 5, quota: { pauseMs: 1_500 } })
    expectTypeOf(ac).toEqualTypeOf<PlaceAutocompleteResult>()
    expectTypeOf(ac.status).toEqualTypeOf<'idle' | 'debouncing' | 'loading' | 'success' | 'error'>()
    expectTypeOf(ac.suggestions).toEqualTypeOf<PlaceSuggestion[]>()
    expectTypeOf(ac.suggestions[0]!.kind).toEqualTypeOf<'address' | 'street' | 'city'>()
    expectTypeOf(ac.error).toEqualTypeOf<TandemError | null>()
    expectTypeOf(ac.degraded).toEqualTypeOf<Degraded | null>()
    expectTypeOf(ac.setQuery).toEqualTypeOf<(text: string) => void>()
    expectTypeOf(ac.select).returns.toEqualTypeOf<Promise<AutocompleteSelection>>()
    usePlaceAutocomplete()
    // @ts-expect-error: near is a point
    usePlaceAutocomplete({ near: 'Mountain View' })
    // @ts-expect-error: no such option
    usePlaceAutocomplete({ debounce: 100 })
  })
})
