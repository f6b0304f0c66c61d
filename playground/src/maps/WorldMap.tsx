import { maps, type BBox, type LatLng, type MapFeature } from '@tandem/core'
import { useQuery } from '@tandem/react'
import { geoGraticule10, geoMercator, geoNaturalEarth1, geoPath, type GeoProjection } from 'd3-geo'
import type { Feature } from 'geojson'
import { useMemo, useState, type MouseEvent, type Ref } from 'react'
import { humanError } from '../lib/format.js'

const W = 960
const H = 520
const PAD = 36
/** Nearer than this (degrees across) a short route or a single stop loses its context. */
const MIN_SPAN = 4
const WORLD: BBox = [-180, -85, 180, 85]

export interface Marker {
  at: LatLng
  label: string
  kind: 'origin' | 'waypoint' | 'destination' | 'point'
}

export interface WorldMapProps {
  /** The route's decoded points, drawn as one SVG path. */
  route?: readonly LatLng[] | undefined
  markers?: readonly Marker[]
  /** A click on the map, as a point (for reverse geocoding). */
  onPick?: (at: LatLng) => void
  /** The figure, for the panel to bring into view after a route (a phone's one column). */
  figureRef?: Ref<HTMLElement>
}

/** The box around the points, at least MIN_SPAN across, as "west,south,east,north" ('' for none): a stable key. */
function boxKey(points: readonly LatLng[]): string {
  if (!points.length) return ''
  let [west, east, south, north] = [Infinity, -Infinity, Infinity, -Infinity]
  for (const p of points) {
    ;[west, east] = [Math.min(west, p.lng), Math.max(east, p.lng)]
    ;[south, north] = [Math.min(south, p.lat), Math.max(north, p.lat)]
  }
  const widen = (lo: number, hi: number, span: number): [number, number] => {
    const c = (lo + hi) / 2
    return hi - lo < span ? [c - span / 2, c + span / 2] : [lo, hi]
  }
  ;[west, east] = widen(west, east, MIN_SPAN)
  ;[south, north] = widen(south, north, MIN_SPAN * 0.6)
  // Widened past the antimeridian (a stop in Fiji): slide the box back inside, never wrap it.
  const shift = Math.max(0, -180 - west) - Math.max(0, east - 180)
  ;[west, east] = [Math.max(-180, west + shift), Math.min(180, east + shift)]
  return [west, Math.max(south, -84), east, Math.min(north, 84)].join(',')
}

/** Mercator fitted to a box key, or undefined for none (the whole world). */
function fitted(key: string): GeoProjection | undefined {
  if (!key) return undefined
  const [west = 0, south = 0, east = 0, north = 0] = key.split(',').map(Number)
  const corners = [
    [west, south],
    [east, north],
  ]
  const box: Feature = { type: 'Feature', properties: {}, geometry: { type: 'MultiPoint', coordinates: corners } }
  return geoMercator()
    .fitExtent(
      [
        [PAD, PAD],
        [W - PAD, H - PAD],
      ],
      box,
    )
    .clipExtent([
      [0, 0],
      [W, H],
    ])
}

const world = () =>
  geoNaturalEarth1().fitExtent(
    [
      [8, 8],
      [W - 8, H - 8],
    ],
    { type: 'Sphere' },
  )

/** What a fitted projection shows, as the service's bbox (rounded, so the query key is stable). */
function visibleBox(projection: GeoProjection): BBox {
  // Mercator's x is scale × longitude in radians: the width shows this many degrees.
  const degreesAcross = ((W / projection.scale()) * 180) / Math.PI
  const nw = projection.invert?.([0, 0])
  const se = projection.invert?.([W, H])
  if (!nw || !se || degreesAcross >= 360) return WORLD
  const wrap = (lng: number) => ((((lng + 180) % 360) + 360) % 360) - 180
  const r = (v: number) => Math.round(v * 1000) / 1000
  const lat = (v: number) => r(Math.max(-85, Math.min(85, v)))
  return [r(wrap(nw[0])), lat(se[1]), r(wrap(se[0])), lat(nw[1])]
}

/**
 * The map from the maps service itself: `getMapView` answers the country boundaries (Natural
 * Earth 1:110m) and the biggest cities inside a box, through `useQuery` (cached, one request per
 * view). It shows the whole world until there is a route or a stop, then fits them; a looked-up
 * point never re-fits it (so the next click lands where it was aimed), and "Whole world" resets.
 */
export function WorldMap({ route, markers = [], onPick, figureRef }: WorldMapProps) {
  // Keyed by the box, not the arrays: a new looked-up point (a new markers array) keeps the view.
  const key = boxKey([...(route ?? []), ...markers.filter((m) => m.kind !== 'point').map((m) => m.at)])
  const fit = useMemo(() => fitted(key), [key])
  // "Whole world" holds until the stops or the route change.
  const [wholeFor, setWholeFor] = useState<GeoProjection>()
  const projection = useMemo(() => (fit && wholeFor !== fit ? fit : world()), [fit, wholeFor])
  const isFitted = projection === fit
  const bbox = isFitted ? visibleBox(projection) : WORLD

  const view = useQuery(
    ['maps', 'view', ...bbox],
    (client, { signal }) => maps(client).getMapView({ bbox }, { signal }),
    { staleTime: Infinity, keepPreviousData: true },
  )
  const path = useMemo(() => geoPath(projection), [projection])
  const features = view.data?.features.features
  const land = useMemo(
    () =>
      (features ?? [])
        .filter((f) => f.properties.kind === 'country')
        .map((f) => ({ key: f.id, name: f.properties.name, d: path(f as Feature) ?? '' })),
    [features, path],
  )
  const cities = useMemo(() => (features ?? []).filter((f) => f.properties.kind === 'city'), [features])
  const graticule = useMemo(() => path(geoGraticule10()) ?? '', [path])
  const sphere = useMemo(() => path({ type: 'Sphere' }) ?? '', [path])

  // The route's points projected one by one: a polyline point every 10 km, so straight segments are fine.
  const routeD = useMemo(() => {
    if (!route?.length) return ''
    let d = ''
    for (const p of route) {
      const xy = projection([p.lng, p.lat])
      if (xy) d += `${d ? 'L' : 'M'}${xy[0].toFixed(1)},${xy[1].toFixed(1)}`
    }
    return d
  }, [route, projection])

  const click = (e: MouseEvent<SVGSVGElement>) => {
    if (!onPick) return
    const r = e.currentTarget.getBoundingClientRect()
    const ll = projection.invert?.([((e.clientX - r.left) / r.width) * W, ((e.clientY - r.top) / r.height) * H])
    if (ll && Number.isFinite(ll[0]) && Math.abs(ll[1]) <= 90)
      onPick({ lat: +ll[1].toFixed(4), lng: +ll[0].toFixed(4) })
  }

  return (
    <figure className="map" ref={figureRef}>
      {fit && (
        <div className="map-tools">
          <button
            type="button"
            className="small"
            // A projection is a function: pass it through an updater, or React would call it as one.
            onClick={() => setWholeFor(() => (isFitted ? fit : undefined))}
            data-testid="map-zoom"
          >
            {isFitted ? 'Whole world' : 'Zoom to the stops'}
          </button>
        </div>
      )}
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={route?.length ? 'Map with the computed route' : 'World map'}
        data-testid="world-map"
        data-view={isFitted ? 'fitted' : 'world'}
        // The view on screen is the service's answer for this box (not the previous one kept meanwhile).
        data-ready={view.status === 'success' && !view.isPlaceholderData}
        onClick={click}
      >
        <rect width={W} height={H} className="map-ocean" />
        <path d={sphere} className="map-sphere" />
        <path d={graticule} className="map-graticule" />
        <g className="map-land">
          {land.map((c) => (
            <path key={c.key} d={c.d} data-country={c.name}>
              <title>{c.name}</title>
            </path>
          ))}
        </g>
        <g className="map-cities">{cities.map((c) => city(c, projection))}</g>
        {routeD && (
          <>
            <path d={routeD} className="map-route-casing" />
            <path d={routeD} className="map-route" data-testid="route-path" data-points={route?.length ?? 0} />
          </>
        )}
        {markers.map((m, i) => {
          const xy = projection([m.at.lng, m.at.lat])
          if (!xy) return null
          // Near the right edge the label goes to the left of its dot, so it is never cut off.
          const left = xy[0] > W - 160
          return (
            <g
              key={`${m.kind}-${i}`}
              className={`map-marker map-marker-${m.kind}`}
              transform={`translate(${xy[0].toFixed(1)},${xy[1].toFixed(1)})`}
            >
              <circle r={m.kind === 'point' ? 4 : 6.5} />
              <text x={left ? -10 : 10} y={4} textAnchor={left ? 'end' : 'start'}>
                {m.label}
              </text>
            </g>
          )
        })}
      </svg>
      <figcaption className="muted small" aria-live="polite">
        {view.error
          ? `Could not load the map. ${humanError(view.error)}`
          : view.data
            ? `Boundaries and cities from the maps service (getMapView, zoom ${view.data.zoom}), drawn with d3-geo. Click the map, or enter coordinates, to look a point up.`
            : 'Loading the map…'}
      </figcaption>
    </figure>
  )
}

function city(f: MapFeature, projection: GeoProjection) {
  if (f.geometry.type !== 'Point') return null
  const [lng = 0, lat = 0] = f.geometry.coordinates
  const xy = projection([lng, lat])
  if (!xy) return null
  return (
    <circle key={f.id} cx={xy[0].toFixed(1)} cy={xy[1].toFixed(1)} r={f.properties.capital ? 2.5 : 1.8}>
      <title>{f.properties.name}</title>
    </circle>
  )
}
