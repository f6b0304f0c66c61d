import { maps, type ComputedRoute, type LatLng, type Place, type TravelMode } from '@tandem/core'
import { useTandem } from '@tandem/react'
import { useMemo, useState, type FormEvent } from 'react'
import { describeError, duration, km } from '../lib/format.js'
import { useSession } from '../lib/session-context.js'
import { AddressForm } from './AddressForm.js'
import { CoordinatesForm } from './CoordinatesForm.js'
import { title, usePlaceSearch } from './use-place-search.js'
import { WorldMap, type Marker } from './WorldMap.js'

interface Stop {
  label: string
  at: LatLng
  placeId?: string
}

const toStop = (p: Place): Stop => ({ label: p.name, at: p.location, placeId: p.placeId })

export function MapsPanel() {
  const { client } = useTandem()
  const { user } = useSession()
  const [query, setQuery] = useState('')
  const { search, submit, clear, result, busy } = usePlaceSearch(query)
  const places = search ? (result.data ?? []) : []
  const [blank, setBlank] = useState(false)
  const searchError = result.error ? describeError(result.error) : undefined
  const [origin, setOrigin] = useState<Stop>()
  const [destination, setDestination] = useState<Stop>()
  const [mode, setMode] = useState<TravelMode>('drive')
  const [route, setRoute] = useState<ComputedRoute>()
  const [routing, setRouting] = useState(false)
  const [routeError, setRouteError] = useState<string>()
  const [located, setLocated] = useState<Marker>()

  // Dev only: the emulator refuses the next maps request with 429, to show the SDK's wait.
  const [simulated, setSimulated] = useState<string>()
  const simulate429 = async () => {
    try {
      const res = await fetch(`/api/dev/rate-limit?user=${encodeURIComponent(user)}`, { method: 'POST' })
      const body = (await res.json()) as { retryAfterSeconds?: number }
      setSimulated(`the next maps request gets a 429 (Retry-After: ${body.retryAfterSeconds ?? '?'} s); type to see it`)
    } catch (e) {
      setSimulated(`could not reach the dev server: ${describeError(e)}`)
    }
  }

  // Enter: geocode the text as an address ("Porto, Portugal", a country, …), at once.
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

  const compute = async () => {
    if (!origin || !destination) return
    setRouting(true)
    setRouteError(undefined)
    try {
      const r = await maps(client).computeRoute({
        origin: origin.placeId ? { placeId: origin.placeId } : origin.at,
        destination: destination.placeId ? { placeId: destination.placeId } : destination.at,
        mode,
      })
      setRoute(r)
      setLocated(undefined)
    } catch (err) {
      setRoute(undefined)
      setRouteError(describeError(err))
    } finally {
      setRouting(false)
    }
  }

  const markers = useMemo(() => {
    const list: Marker[] = []
    if (origin) list.push({ at: origin.at, label: origin.label, kind: 'origin' })
    if (destination) list.push({ at: destination.at, label: destination.label, kind: 'destination' })
    if (located) list.push(located)
    return list
  }, [origin, destination, located])

  const choose = (which: 'origin' | 'destination', p: Place) => {
    ;(which === 'origin' ? setOrigin : setDestination)(toStop(p))
    setRoute(undefined)
    setRouteError(undefined)
  }

  return (
    <div className="maps">
      <div className="maps-side">
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
              onChange={(e) => {
                setQuery(e.target.value)
                setBlank(false)
              }}
            />
            <button type="submit">Geocode</button>
          </form>
          <p className="hint">
            Typing searches places (<code>searchPlaces</code>); Enter geocodes the text (<code>geocode</code>).{' '}
            <button type="button" className="link small" onClick={() => void simulate429()} data-testid="simulate-429">
              Simulate a 429
            </button>
            {simulated && <span> — {simulated}</span>}
          </p>
          {blank && (
            <p className="error" role="alert" data-testid="search-blank">
              Type a place or an address first.
            </p>
          )}
          {search && searchError && (
            <p className="error" role="alert">
              {searchError}
            </p>
          )}
          {busy.queued > 0 && (
            <p className="hint" role="status" data-testid="rate-limit-busy">
              Busy: {busy.queued} request{busy.queued > 1 ? 's' : ''} waiting for the rate limit, about{' '}
              {Math.max(1, Math.ceil(busy.waitMs / 1000))} s
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
                  onClick={() => choose('destination', p)}
                  aria-label={`To ${p.name}`}
                >
                  To
                </button>
              </li>
            ))}
          </ul>
        </section>

        <section className="card" aria-labelledby="route-title">
          <h2 id="route-title">Route</h2>
          <dl className="stops">
            <dt>
              <span className="dot dot-origin" /> From
            </dt>
            <dd data-testid="origin">{origin?.label ?? <span className="muted">pick a place above</span>}</dd>
            <dt>
              <span className="dot dot-destination" /> To
            </dt>
            <dd data-testid="destination">{destination?.label ?? <span className="muted">pick a place above</span>}</dd>
          </dl>
          <div className="row">
            <label className="inline">
              Mode{' '}
              <select
                value={mode}
                onChange={(e) => {
                  setMode(e.target.value as TravelMode)
                  setRoute(undefined)
                }}
              >
                <option value="drive">Drive</option>
                <option value="bicycle">Bicycle</option>
                <option value="walk">Walk</option>
              </select>
            </label>
            <button type="button" className="primary" disabled={!origin || !destination || routing} onClick={compute}>
              {routing ? 'Computing…' : 'Compute route'}
            </button>
          </div>
          {routeError && (
            <p className="error" role="alert">
              {routeError}
            </p>
          )}
          {route && (
            <div className="route-summary" data-testid="route-summary">
              <div>
                <span className="big" data-testid="route-distance">
                  {km(route.distanceMeters)}
                </span>
                <span className="muted small"> distance</span>
              </div>
              <div>
                <span className="big" data-testid="route-duration">
                  {duration(route.durationSeconds)}
                </span>
                <span className="muted small"> by {route.mode}</span>
              </div>
              <div className="muted small">{route.coordinates.length} points decoded from the polyline</div>
            </div>
          )}
        </section>

        <AddressForm />
      </div>
      <div className="maps-main">
        <WorldMap route={route?.coordinates} markers={markers} onPick={pick} />
        <section className="card" aria-labelledby="coords-title">
          <h2 id="coords-title">Look up a point</h2>
          <CoordinatesForm onPick={pick} />
        </section>
      </div>
    </div>
  )
}
