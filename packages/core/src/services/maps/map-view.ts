import { LAT_MAX, LNG_MAX, MAP_VIEW_FIELDS, ZOOM_MAX, ZOOM_MIN, type MapView } from '@tandem/contract'
import { DEV } from '@tandem/contract/dev'
import type { RequestClient } from '../../client-request.js'
import { ValidationError } from '../../errors.js'
import type { CallOptions } from '../../types.js'
import { requireArray, requireLatLng, requireNumber, requireObject } from '../../validate.js'
import { mapsCall, point } from './shape.js'
import type { MapViewParams } from './types.js'

/** What a map shows around `center` at `zoom`, or within `bbox` ([west, south, east, north]). */
export async function getMapView(
  client: RequestClient,
  params: MapViewParams,
  options?: CallOptions,
): Promise<MapView> {
  const p = requireObject(params, 'params')
  if (p.bbox === undefined) {
    const center = point(requireLatLng(p.center, 'center'))
    return mapsCall(
      client,
      'views',
      { query: { center, zoom: requireNumber(p.zoom, 'zoom', ZOOM_MIN, ZOOM_MAX) } },
      MAP_VIEW_FIELDS,
      options,
    )
  }
  const b = requireArray(p.bbox, 'bbox', 4, (v, f) => requireNumber(v, f, -LNG_MAX, LNG_MAX))
  const [, south = 0, , north = 0] = b
  if (b.length < 4 || !(south < north && south >= -LAT_MAX && north <= LAT_MAX))
    throw new ValidationError(
      'bbox',
      DEV && process.env.NODE_ENV !== 'production' && 'must be [west, south, east, north]',
    )
  return mapsCall(client, 'views', { query: { bbox: b.join() } }, MAP_VIEW_FIELDS, options)
}
