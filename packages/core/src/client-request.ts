import { DEV } from '@tandem/contract/dev'
import { ValidationError } from './errors.js'
import type { Http } from './http.js'
import type { UploadsSlot } from './uploads/types.js'

// What the standalone functions (`geocode(client, …)`, `collection(client, …)`) need of a client:
// its pipeline. The modular client and the full one both have it.

/** Any Tandem client: `createClient` of `@tandem/core/client` or of `@tandem/core`. */
export interface RequestClient {
  /** The pipeline: auth, rate limit, retries, typed errors. */
  readonly request: Http
  /** Where its uploads store lives (`uploads(client)`): every client `createClient` makes has it. */
  readonly uploadsSlot?: UploadsSlot
}

/** The client's pipeline, or a `ValidationError` on `client` (a call given something else says so). */
export function httpOf(client: RequestClient): Http {
  const http = (client as Partial<RequestClient> | null | undefined)?.request
  if (typeof http !== 'function')
    throw new ValidationError(
      'client',
      DEV && process.env.NODE_ENV !== 'production' && 'must be a client from createClient',
    )
  return http
}
