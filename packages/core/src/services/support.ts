import type { Http } from '../http.js'

// Typed client of the support service (issue 3). Attached to the client as `client.support`.
export interface SupportService {}

export function createSupportService(_http: Http): SupportService {
  return {}
}
