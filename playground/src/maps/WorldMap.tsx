import type { LatLng } from '@tandem/core'
import { geoGraticule10, geoMercator, geoNaturalEarth1, geoPath, type GeoProjection } from 'd3-geo'
import type { Feature, FeatureCollection, Geometry } from 'geojson'
import { useEffect, useMemo, useState, type MouseEvent } from 'react'
import { feature } from 'topojson-client'
import type { GeometryCollection, Topology } from 'topojson-specification'

const W = 960
const H = 520
const PAD = 36

export interface Marker {
  at: LatLng
  label: string
  kind: 'origin' | 'destination' | 'point'
}

export interface WorldMapProps {
  /** The route's decoded points, drawn as one SVG path. */
  route?: readonly LatLng[] | undefined
  markers?: readonly Marker[]
  /** A click on the map, as a point (for reverse geocoding). */
  onPick?: (at: LatLng) => void
}

type Countries = FeatureCollection<Geometry, { name: string }>
let atlas: Promise<Countries> | undefined

/** Natural Earth 1:110m countries from world-atlas, loaded once, on first use (its own chunk). */
function loadCountries(): Promise<Countries> {
  atlas ??= import('world-atlas/countries-110m.json').then((m) => {
    const topology = (m.default ?? m) as unknown as Topology<{ countries: GeometryCollection<{ name: string }> }>
    return feature(topology, topology.objects.countries) as Countries
  })
  return atlas
}

/**
 * The projection: the whole world (Natural Earth) when there is nothing to show, else Mercator
 * fitted to the route and markers, never closer than about 4° so a short route keeps its context.
 */
function project(points: readonly LatLng[]): GeoProjection {
  if (points.length === 0)
    return geoNaturalEarth1().fitExtent(
      [
        [8, 8],
        [W - 8, H - 8],
      ],
      { type: 'Sphere' },
    )
  let west = Infinity,
    east = -Infinity,
    south = Infinity,
    north = -Infinity
  for (const p of points) {
    west = Math.min(west, p.lng)
    east = Math.max(east, p.lng)
    south = Math.min(south, p.lat)
    north = Math.max(north, p.lat)
  }
  const minSpan = 4
  if (east - west < minSpan) {
    const c = (east + west) / 2
    west = c - minSpan / 2
    east = c + minSpan / 2
  }
  if (north - south < minSpan * 0.6) {
    const c = (north + south) / 2
    south = c - minSpan * 0.3
    north = c + minSpan * 0.3
  }
  north = Math.min(north, 84)
  south = Math.max(south, -84)
  const box: Feature = {
    type: 'Feature',
    properties: {},
    geometry: {
      type: 'MultiPoint',
      coordinates: [
        [west, south],
        [east, north],
        [west, north],
        [east, south],
      ],
    },
  }
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

export function WorldMap({ route, markers = [], onPick }: WorldMapProps) {
  const [countries, setCountries] = useState<Countries | undefined>()
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    let live = true
    loadCountries().then(
      (c) => live && setCountries(c),
      () => live && setFailed(true),
    )
    return () => void (live = false)
  }, [])

  const points = useMemo(() => [...(route ?? []), ...markers.map((m) => m.at)], [route, markers])
  const projection = useMemo(() => project(points), [points])
  const path = useMemo(() => geoPath(projection), [projection])
  const land = useMemo(
    () =>
      countries?.features.map((f, i) => ({ key: `${f.id ?? i}`, name: f.properties?.name ?? '', d: path(f) ?? '' })) ??
      [],
    [countries, path],
  )
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
    const svg = e.currentTarget
    const r = svg.getBoundingClientRect()
    const ll = projection.invert?.([((e.clientX - r.left) / r.width) * W, ((e.clientY - r.top) / r.height) * H])
    if (ll && Number.isFinite(ll[0]) && Math.abs(ll[1]) <= 90)
      onPick({ lat: +ll[1].toFixed(4), lng: +ll[0].toFixed(4) })
  }

  return (
    <figure className="map">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={route?.length ? 'Map with the computed route' : 'World map'}
        data-testid="world-map"
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
        {routeD && (
          <>
            <path d={routeD} className="map-route-casing" />
            <path d={routeD} className="map-route" data-testid="route-path" data-points={route?.length ?? 0} />
          </>
        )}
        {markers.map((m, i) => {
          const xy = projection([m.at.lng, m.at.lat])
          if (!xy) return null
          return (
            <g
              key={`${m.kind}-${i}`}
              className={`map-marker map-marker-${m.kind}`}
              transform={`translate(${xy[0].toFixed(1)},${xy[1].toFixed(1)})`}
            >
              <circle r={m.kind === 'point' ? 4 : 6.5} />
              <text x={10} y={4}>
                {m.label}
              </text>
            </g>
          )
        })}
      </svg>
      <figcaption className="muted small">
        {failed
          ? 'Could not load the country boundaries.'
          : countries
            ? 'Natural Earth 1:110m boundaries (world-atlas), projected with d3-geo. Click the map to look a point up.'
            : 'Loading boundaries…'}
      </figcaption>
    </figure>
  )
}
