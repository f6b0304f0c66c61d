import type { Http } from '../http.js'

// Typed client of the realtime service (issue 3). Attached to the client as `client.realtime`.
export interface RealtimeService {}

export function createRealtimeService(_http: Http): RealtimeService {
  return {}
}
