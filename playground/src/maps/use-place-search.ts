import { maps, type LatLng, type Place } from '@tandem/core'
import { useQuery, useRateLimit } from '@tandem/react'
import { useCallback, useEffect, useRef, useState } from 'react'

/** What the results panel shows: the places matching the typed text, a geocoded text, or what is near a point. */
export type Search = { kind: 'places'; q: string } | { kind: 'geocode'; q: string } | { kind: 'near'; at: LatLng }

const TYPING_MS = 250

/**
 * The maps panel's search on `useQuery`: typing searches places once the text rests for 250 ms
 * (the one timer left: it saves the 100 requests/min plan from one search per keystroke), Enter
 * geocodes at once (and cancels the pending typing search), a click on the map reverse-geocodes.
 * The latest action wins: the query of a superseded one is aborted (and leaves the rate-limit
 * queue), the previous results stay on screen until the next arrive.
 */
export function usePlaceSearch(text: string) {
  const [search, setSearch] = useState<Search>()
  const typing = useRef<ReturnType<typeof setTimeout>>(undefined)
  useEffect(() => {
    const q = text.trim()
    if (q.length < 2) return
    typing.current = setTimeout(() => setSearch({ kind: 'places', q }), TYPING_MS)
    return () => clearTimeout(typing.current)
  }, [text])
  /** Enter or a click: at once, and the typing search still pending never replaces it. */
  const submit = useCallback((next: Search) => {
    clearTimeout(typing.current)
    setSearch(next)
  }, [])

  /** A blank Enter: no search, no results left from the last one. */
  const clear = useCallback(() => {
    clearTimeout(typing.current)
    setSearch(undefined)
  }, [])

  const key = search && (search.kind === 'near' ? [search.at.lat, search.at.lng] : [search.q])
  const result = useQuery(
    ['maps', search?.kind, ...(key ?? [])],
    async (client, { signal }): Promise<Place[]> => {
      if (!search) return []
      if (search.kind === 'places')
        return (await maps(client).searchPlaces({ query: search.q, limit: 6 }, { signal })).data
      const params = search.kind === 'near' ? { location: search.at } : { query: search.q }
      return (await maps(client).geocode(params, { signal })).results
    },
    { enabled: search !== undefined, keepPreviousData: true, staleTime: 60_000 },
  )
  const busy = useRateLimit('maps')
  return { search, submit, clear, result, busy }
}

export function title(search: Search | undefined, places: Place[] | undefined): string {
  if (!search) return ''
  if (search.kind === 'places') return `Places matching “${search.q}”`
  if (search.kind === 'geocode') return places?.length ? `Geocoded “${search.q}”` : `Nothing found for “${search.q}”`
  const at = `${search.at.lat.toFixed(2)}, ${search.at.lng.toFixed(2)}`
  return places?.length ? `Near ${at}` : 'Nothing near that point (sea?)'
}
