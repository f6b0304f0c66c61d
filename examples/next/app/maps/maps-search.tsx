'use client'
import { useQuery } from '@tandem/react'
import { useDeferredValue, useState } from 'react'

/** A places search in the browser: one cached query per text, the previous answer kept while typing. */
export function MapsSearch() {
  const [text, setText] = useState('')
  const query = useDeferredValue(text.trim())
  const places = useQuery(
    ['maps', 'searchPlaces', query],
    (client, { signal }) => client.maps.searchPlaces({ query, limit: 10 }, { signal }),
    { enabled: query.length >= 2, keepPreviousData: true, staleTime: 60_000 },
  )
  return (
    <>
      <label>
        Search places <input value={text} onChange={(e) => setText(e.target.value)} placeholder="e.g. Paris" />
      </label>
      {places.status === 'error' && <p role="alert">The search failed: {places.error?.message}</p>}
      <ul data-testid="places" aria-busy={places.isFetching}>
        {places.data?.data.map((p) => (
          <li key={p.placeId} data-testid="place">
            {p.name} <span className="muted">{p.formattedAddress}</span>
          </li>
        ))}
      </ul>
    </>
  )
}
