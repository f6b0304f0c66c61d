import type { Http } from '../http.js'

// Typed client of the maps service (issue 3). Attached to the client as `client.maps`.
export interface MapsService {}

export function createMapsService(_http: Http): MapsService {
  return {}
}
