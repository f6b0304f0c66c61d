import type { ComputedRoute, LatLng, Place } from '@tandem/core'
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { ErrorDetails } from '../lib/ErrorDetails.js'
import { errorField } from '../lib/format.js'
import { useSession } from '../lib/session-context.js'
import { AddressForm } from './AddressForm.js'
import { CoordinatesForm } from './CoordinatesForm.js'
import './maps.css'
import { MAX_WAYPOINTS, RouteCard, type Stop } from './RouteCard.js'
import { useCountdown } from './use-countdown.js'
import { title, usePlaceSearch } from './use-place-search.js'
import { useSimulated429 } from './use-simulated-429.js'
import { WorldMap, type Marker } from './WorldMap.js'

const toStop = (p: Place): Stop => ({ label: p.name, at: p.location, placeId: p.placeId })

/** Brings an element into view only when it is out of it (a phone's one column), never on a desktop's two. */
function reveal(el: Element | null) {
  if (!el) return
  const r = el.getBoundingClientRect()
  if (r.top >= 0 && r.bottom <= window.innerHeight) return
  const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches
  el.scrollIntoView({ block: 'nearest', behavior: still ? 'auto' : 'smooth' })
}

export function MapsPanel() {
  const { user } = useSession()
  const [query, setQuery] = useState('')
  const { search, submit, clear, result, busy } = usePlaceSearch(query)
  const places = search ? (result.data ?? []) : []
  const [blank, setBlank] = useState(false)
  const [origin, setOrigin] = useState<Stop>()
  const [waypoints, setWaypoints] = useState<readonly Stop[]>([])
  const [destination, setDestination] = useState<Stop>()
  const [route, setRoute] = useState<ComputedRoute>()
  const [located, setLocated] = useState<Marker>()
  const simulated = useSimulated429(user)
  const waitLeft = useCountdown(busy.until)
  // The queue's wait ends when the service's Retry-After does (give or take the refill): it is the service's.
  const serviceWait = busy.queued > 0 && busy.until <= simulated.serviceWaitUntil + 1000

  // A route computed on a phone: its map is below the cards, so bring it up to be seen.
  const map = useRef<HTMLElement>(null)
  useEffect(() => {
    if (route) reveal(map.current)
  }, [route])

  // Errors of the text search stay here; those of a looked-up point go to the coordinates form.
  const searchError = search && search.kind !== 'near' ? result.error : undefined
  const pointError = search?.kind === 'near' ? result.error : undefined
  const searchInvalid =
    blank || (searchError !== null && searchError !== undefined && errorField(searchError) !== undefined)

  // Enter: geocode the text as an address ("Porto, Portugal", "Rua Augusta 100, Lisbon", …), at once.
  const geocode = (e: FormEvent) => {
    e.preventDefault()
    const q = query.trim()
    setBlank(!q)
    if (q) submit({ kind: 'geocode', q })
    else clear()
  }

  // A click on the map: reverse geocoding.
  const pick = (at: LatLng) => {
    setLocated({ at, label: `${at.lat.toFixed(2)}, ${at.lng.toFixed(2)}`, kind: 'point' })
    submit({ kind: 'near', at })
  }

  const markers = useMemo(() => {
    const list: Marker[] = []
    if (origin) list.push({ at: origin.at, label: origin.label, kind: 'origin' })
    for (const w of waypoints) list.push({ at: w.at, label: w.label, kind: 'waypoint' })
    if (destination) list.push({ at: destination.at, label: destination.label, kind: 'destination' })
    if (located) list.push(located)
    return list
  }, [origin, waypoints, destination, located])

  /** Any change of the stops drops the route computed for the old ones. */
  const restop = (change: () => void) => {
    change()
    setRoute(undefined)
  }
  const choose = (which: 'origin' | 'via' | 'destination', p: Place) =>
    restop(() => {
      if (which === 'origin') setOrigin(toStop(p))
      else if (which === 'destination') setDestination(toStop(p))
      else setWaypoints((w) => [...w, toStop(p)])
    })

  return (
    <div className="maps">
      <div className="maps-side">
        <RouteCard
          origin={origin}
          waypoints={waypoints}
          destination={destination}
          onRemoveWaypoint={(i) => restop(() => setWaypoints((w) => w.filter((_, j) => j !== i)))}
          route={route}
          onRoute={(r) => {
            setRoute(r)
            if (r) setLocated(undefined)
          }}
        />

        <section className="card" aria-labelledby="search-title">
          <h2 id="search-title">Find a place</h2>
          <form onSubmit={geocode} className="row">
            <label htmlFor="place-query" className="sr-only">
              Place or address
            </label>
            <input
              id="place-query"
              type="search"
              placeholder="e.g. Porto, Portugal"
              value={query}
              aria-invalid={searchInvalid || undefined}
              aria-describedby={blank ? 'search-blank' : searchError ? 'search-error' : undefined}
              onChange={(e) => {
                setQuery(e.target.value)
                setBlank(false)
              }}
            />
            <button type="submit">Geocode</button>
          </form>
          <p className="hint">
            Typing searches places (<code>searchPlaces</code>); Enter geocodes the text (<code>geocode</code>), a street
            address too.{' '}
            {import.meta.env.DEV && (
              <button
                type="button"
                className="link small"
                onClick={() => void simulated.arm()}
                data-testid="simulate-429"
              >
                Simulate a 429
              </button>
            )}
            {simulated.armed !== undefined && (
              <span data-testid="simulate-429-hint">
                {' '}
                — the next maps request gets a 429 (Retry-After: {simulated.armed} s); type to see it
              </span>
            )}
          </p>
          {import.meta.env.DEV && simulated.failure !== undefined && (
            <ErrorDetails error={simulated.failure} message="The dev server could not be reached to simulate a 429." />
          )}
          {blank && (
            <p className="error" role="alert" id="search-blank" data-testid="search-blank">
              Type a place or an address first.
            </p>
          )}
          {searchError && <ErrorDetails error={searchError} id="search-error" data-testid="search-error" />}
          {busy.queued > 0 && (
            <p className="hint" role="status" data-testid="rate-limit-busy">
              Busy: {busy.queued} request{busy.queued > 1 ? 's' : ''} waiting{' '}
              {serviceWait ? 'because the service answered 429 (its Retry-After)' : 'for the client-side rate limit'},
              about <span data-testid="rate-limit-seconds">{Math.max(1, waitLeft)}</span> s
            </p>
          )}
          {/* Always there, so the first answer is announced too: "Searching…", then what was found. */}
          <div aria-live="polite">
            {search && (
              <h3 className="list-title" data-testid="results-title">
                {result.isPlaceholderData || result.status === 'pending' ? 'Searching…' : title(search, result.data)}
                {result.isFetching && !result.isPlaceholderData && result.status !== 'pending' ? ' …' : ''}
              </h3>
            )}
          </div>
          <ul className="places" data-testid="place-results">
            {places.map((p) => (
              <li key={p.placeId}>
                <div className="grow">
                  <strong>{p.name}</strong>
                  {/* A country's address is its name: said once. */}
                  <span className="muted small place-address">
                    {[
                      p.formattedAddress !== p.name && p.formattedAddress,
                      p.population && `${p.population.toLocaleString('en')} people`,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </span>
                </div>
                <button
                  type="button"
                  className="small"
                  onClick={() => choose('origin', p)}
                  aria-label={`From ${p.name}`}
                >
                  From
                </button>
                <button
                  type="button"
                  className="small"
                  onClick={() => choose('via', p)}
                  aria-label={`Via ${p.name}`}
                  disabled={waypoints.length >= MAX_WAYPOINTS}
                >
                  Via
                </button>
                <button
                  type="button"
                  className="small"
                  onClick={() => choose('destination', p)}
                  aria-label={`To ${p.name}`}
                >
                  To
                </button>
              </li>
            ))}
          </ul>
        </section>

        <AddressForm />
      </div>
      <div className="maps-main">
        <WorldMap route={route?.coordinates} markers={markers} onPick={pick} figureRef={map} />
        <section className="card" aria-labelledby="coords-title">
          <h2 id="coords-title">Look up a point</h2>
          <CoordinatesForm onPick={pick} error={pointError ?? undefined} />
        </section>
      </div>
    </div>
  )
}
