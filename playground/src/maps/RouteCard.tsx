import { MAX_WAYPOINTS } from '@tandem/contract'
import { maps, type ComputedRoute, type LatLng, type TravelMode } from '@tandem/core'
import { useTandem } from '@tandem/react'
import { useEffect, useRef, useState } from 'react'
import { ErrorDetails } from '../lib/ErrorDetails.js'
import { duration, km } from '../lib/format.js'

export interface Stop {
  label: string
  at: LatLng
  placeId?: string
}

/** The contract's cap on intermediate stops. */
export { MAX_WAYPOINTS }

interface RouteCardProps {
  origin?: Stop | undefined
  waypoints: readonly Stop[]
  destination?: Stop | undefined
  onRemoveWaypoint: (index: number) => void
  route?: ComputedRoute | undefined
  onRoute: (route: ComputedRoute | undefined) => void
}

const waypoint = (s: Stop) => (s.placeId ? { placeId: s.placeId } : s.at)

/**
 * The route form: from, any stops on the way (added with "Via" in the results, removed here), to,
 * a mode; then the whole route and each leg. It comes first in the maps panel, so Compute route is
 * two Tabs from the panel's start, not a dozen behind the search results.
 */
export function RouteCard({ origin, waypoints, destination, onRemoveWaypoint, route, onRoute }: RouteCardProps) {
  const { client } = useTandem()
  const [mode, setMode] = useState<TravelMode>('drive')
  const [routing, setRouting] = useState(false)
  // An error belongs to the stops and mode it was computed for: any change hides it.
  const asked = JSON.stringify([origin, waypoints, destination, mode])
  const [failed, setFailed] = useState<{ asked: string; error: unknown }>()
  const error = failed?.asked === asked ? failed.error : undefined

  // After a "Remove", the focus goes to the next stop's Remove (or the mode), not to the page's start.
  const removeButtons = useRef<(HTMLButtonElement | null)[]>([])
  const modeSelect = useRef<HTMLSelectElement>(null)
  const refocus = useRef<number>(undefined)
  useEffect(() => {
    const i = refocus.current
    if (i === undefined) return
    refocus.current = undefined
    ;(removeButtons.current[i] ?? removeButtons.current[i - 1] ?? modeSelect.current)?.focus()
  }, [waypoints])

  const compute = async () => {
    if (!origin || !destination) return
    setRouting(true)
    setFailed(undefined)
    try {
      onRoute(
        await maps(client).computeRoute({
          origin: waypoint(origin),
          destination: waypoint(destination),
          ...(waypoints.length ? { waypoints: waypoints.map(waypoint) } : {}),
          mode,
        }),
      )
    } catch (err) {
      onRoute(undefined)
      setFailed({ asked, error: err })
    } finally {
      setRouting(false)
    }
  }

  const stops = [origin, ...waypoints, destination]
  const pick = <span className="muted">pick a place below</span>
  return (
    <section className="card" aria-labelledby="route-title">
      <h2 id="route-title">Route</h2>
      <ol className="route-stops" aria-label="Stops">
        <li>
          <span className="dot dot-origin" aria-hidden="true" /> <span className="route-stop-role">From</span>{' '}
          <span data-testid="origin">{origin?.label ?? pick}</span>
        </li>
        {waypoints.map((w, i) => (
          <li key={`${i}-${w.label}`} data-testid="waypoint">
            <span className="dot dot-waypoint" aria-hidden="true" /> <span className="route-stop-role">Via</span>{' '}
            <span className="grow">{w.label}</span>
            <button
              type="button"
              className="small"
              ref={(el) => void (removeButtons.current[i] = el)}
              aria-label={`Remove stop ${i + 1}, ${w.label}`}
              onClick={() => {
                refocus.current = i
                onRemoveWaypoint(i)
              }}
            >
              Remove
            </button>
          </li>
        ))}
        <li>
          <span className="dot dot-destination" aria-hidden="true" /> <span className="route-stop-role">To</span>{' '}
          <span data-testid="destination">{destination?.label ?? pick}</span>
        </li>
      </ol>
      {waypoints.length === 0 && (
        <p className="hint">
          <strong>Via</strong> in the results adds a stop on the way (up to {MAX_WAYPOINTS}).
        </p>
      )}
      <div className="row">
        <label className="inline">
          Mode{' '}
          <select
            ref={modeSelect}
            value={mode}
            onChange={(e) => {
              setMode(e.target.value as TravelMode)
              onRoute(undefined)
            }}
          >
            <option value="drive">Drive</option>
            <option value="bicycle">Bicycle</option>
            <option value="walk">Walk</option>
          </select>
        </label>
        <button
          type="button"
          className="primary"
          disabled={!origin || !destination || routing}
          onClick={compute}
          aria-describedby={error ? 'route-error' : undefined}
        >
          {routing ? 'Computing…' : 'Compute route'}
        </button>
      </div>
      {error !== undefined && <ErrorDetails error={error} id="route-error" data-testid="route-error" />}
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
          {route.legs.length > 1 && (
            <ol className="route-legs" aria-label="Legs" data-testid="route-legs">
              {route.legs.map((leg, i) => (
                <li key={i} data-testid="route-leg">
                  {stops[i]?.label ?? '?'} → {stops[i + 1]?.label ?? '?'}: <strong>{km(leg.distanceMeters)}</strong>,{' '}
                  {duration(leg.durationSeconds)}
                </li>
              ))}
            </ol>
          )}
          <div className="muted small">{route.coordinates.length} points decoded from the polyline</div>
        </div>
      )}
    </section>
  )
}
