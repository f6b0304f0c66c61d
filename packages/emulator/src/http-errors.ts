// A thrown HttpError becomes a JSON error response; anything else thrown becomes a 500.

export interface ErrorDetail {
  [key: string]: unknown
}

export class HttpError extends Error {
  override readonly name = 'HttpError'
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    /** Extra response headers, e.g. `Allow` on a 405 or `Retry-After` on a 429. */
    readonly headers?: Record<string, string>,
  ) {
    super(message)
  }
}

/** A default error code for a bare status (used by injected faults). */
export function codeForStatus(status: number): string {
  const known: Record<number, string> = {
    400: 'bad_request',
    401: 'unauthorized',
    403: 'forbidden',
    404: 'not_found',
    408: 'request_timeout',
    409: 'conflict',
    429: 'rate_limited',
    500: 'internal_error',
    502: 'bad_gateway',
    503: 'service_unavailable',
    504: 'gateway_timeout',
  }
  return known[status] ?? (status >= 500 ? 'server_error' : 'client_error')
}
