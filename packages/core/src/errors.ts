/** Everything Tandem throws is a `TandemError`. Guards check `name` so they hold across bundles and realms. */

export interface TandemErrorOptions {
  code: string
  status?: number
  requestId?: string
  cause?: unknown
  details?: unknown
}

export class TandemError extends Error {
  override name: string = 'TandemError'
  readonly code: string
  readonly status?: number
  readonly requestId?: string
  readonly details?: unknown

  constructor(message: string, options: TandemErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = options.code
    if (options.status !== undefined) this.status = options.status
    if (options.requestId !== undefined) this.requestId = options.requestId
    if (options.details !== undefined) this.details = options.details
  }
}

/** The service answered with an error status, or with a body we could not read. */
export class ApiError extends TandemError {
  override name = 'ApiError' as const
}

/** Missing, refused, expired or under-scoped credentials (401/403, or the token endpoint failed). */
export class AuthError extends TandemError {
  override name = 'AuthError' as const
}

export class RateLimitError extends TandemError {
  override name = 'RateLimitError' as const
  readonly retryAfterMs: number
  constructor(message: string, options: TandemErrorOptions & { retryAfterMs: number }) {
    super(message, options)
    this.retryAfterMs = options.retryAfterMs
  }
}

/** The request never got an HTTP answer (DNS, refused, reset, CORS). */
export class NetworkError extends TandemError {
  override name = 'NetworkError' as const
}

export class TimeoutError extends TandemError {
  override name = 'TimeoutError' as const
}

/** The caller aborted. Named like the DOM's so `e.name === 'AbortError'` checks keep working. */
export class AbortError extends TandemError {
  override name = 'AbortError' as const
}

/** Bad input, refused before anything is sent. `field` names the offending input. */
export class ValidationError extends TandemError {
  override name = 'ValidationError' as const
  readonly field: string
  constructor(field: string, message: string) {
    super(`${field}: ${message}`, { code: 'validation_error', details: [{ field, message }] })
    this.field = field
  }
}

export class RealtimeError extends TandemError {
  override name = 'RealtimeError' as const
  readonly temporary: boolean
  constructor(message: string, options: TandemErrorOptions & { temporary?: boolean }) {
    super(message, options)
    this.temporary = options.temporary ?? false
  }
}

const NAMES = new Set([
  'TandemError', 'ApiError', 'AuthError', 'RateLimitError', 'NetworkError',
  'TimeoutError', 'AbortError', 'ValidationError', 'RealtimeError',
])

function hasName(error: unknown, name?: string): boolean {
  if (typeof error !== 'object' || error === null) return false
  const e = error as { name?: unknown; code?: unknown }
  // A DOMException AbortError has a numeric `code`; ours is a string.
  if (typeof e.name !== 'string' || typeof e.code !== 'string') return false
  return name === undefined ? NAMES.has(e.name) : e.name === name
}

export const isTandemError = (e: unknown): e is TandemError => hasName(e)
export const isApiError = (e: unknown): e is ApiError => hasName(e, 'ApiError')
export const isAuthError = (e: unknown): e is AuthError => hasName(e, 'AuthError')
export const isRateLimitError = (e: unknown): e is RateLimitError => hasName(e, 'RateLimitError')
export const isNetworkError = (e: unknown): e is NetworkError => hasName(e, 'NetworkError')
export const isTimeoutError = (e: unknown): e is TimeoutError => hasName(e, 'TimeoutError')
export const isAbortError = (e: unknown): e is AbortError => hasName(e, 'AbortError')
export const isValidationError = (e: unknown): e is ValidationError => hasName(e, 'ValidationError')
export const isRealtimeError = (e: unknown): e is RealtimeError => hasName(e, 'RealtimeError')
