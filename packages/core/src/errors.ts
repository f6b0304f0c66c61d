import { ERROR_DOCS, type RateLimitBucket } from '@tandem/contract'
import { DEV } from '@tandem/contract/dev'

/**
 * Everything Tandem throws is a `TandemError`. Guards check `name` so they hold across bundles and realms.
 * Messages in the React manner (CONTRIBUTING.md, "Error messages"): a production build keeps the
 * parts (where, field, status, code, request id) and ends with the code's docs link; development
 * has the long sentence instead of the link.
 */

export interface TandemErrorOptions {
  code: string
  status?: number
  requestId?: string
  cause?: unknown
  details?: unknown
}

export class TandemError extends Error {
  override name: string = 'TandemError'
  // `declare`: set below, in this order, as own properties (undefined when not given).
  declare readonly code: string
  declare readonly status?: number
  declare readonly requestId?: string
  declare readonly details?: unknown

  constructor(message: string, { cause, code, status, requestId, details }: TandemErrorOptions) {
    super(
      DEV && process.env.NODE_ENV !== 'production' ? message : `${message} ${ERROR_DOCS}${code}`,
      cause === undefined ? undefined : { cause },
    )
    Object.assign(this, { code, status, requestId, details })
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
  declare readonly retryAfterMs: number
  /**
   * Whose quota: `customer` when a customer token's own bucket refused (or, for a client-side wait,
   * is the one its bucket follows), `app` for the app's plan and for any answer that does not say.
   */
  declare readonly bucket: RateLimitBucket
  constructor(message: string, options: TandemErrorOptions & { retryAfterMs: number; bucket?: RateLimitBucket }) {
    super(message, options)
    this.retryAfterMs = options.retryAfterMs
    this.bucket = options.bucket ?? 'app'
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

/**
 * Bad input, refused before anything is sent. `field` names the offending input. `sentence` is
 * written `<dev guard> && '…'` (CONTRIBUTING.md, "Error messages"): production keeps the field, the
 * code and `evidence`, the short fact the sentence explains (the value refused, the values allowed):
 * `field: validation_error (evidence) <link>`. Never a secret: evidence is shown as it is.
 */
export class ValidationError extends TandemError {
  override name = 'ValidationError' as const
  declare readonly field: string
  constructor(field: string, sentence: string | false, evidence?: string) {
    const message = sentence || (evidence === undefined ? 'validation_error' : `validation_error (${evidence})`)
    super(`${field}: ${message}`, { code: 'validation_error', details: [{ field, message }] })
    this.field = field
  }
}

export class RealtimeError extends TandemError {
  override name = 'RealtimeError' as const
  declare readonly temporary: boolean
  constructor(message: string, options: TandemErrorOptions & { temporary?: boolean }) {
    super(message, options)
    this.temporary = options.temporary ?? false
  }
}

/** The durable outbox (`@tandem/core/persist`) holds as many writes, or bytes, as it may: this one was not taken. */
export class OutboxFullError extends TandemError {
  override name = 'OutboxFullError' as const
}

/**
 * A file a write was given (`files`) that the service would refuse, caught before a byte goes:
 * `code` is the contract's (`too_many_files`, `upload_too_large`, `upload_type_not_allowed`),
 * `details` names the file (`[{ field: 'files[2]', message }]`). No status: nothing was sent.
 */
export class FileError extends TandemError {
  override name = 'FileError' as const
  declare readonly field: string
  constructor(code: string, field: string, sentence: string | false, evidence?: string) {
    const message = sentence || (evidence === undefined ? code : `${code} (${evidence})`)
    super(`${field}: ${message}`, { code, details: [{ field, message }] })
    this.field = field
  }
}

const NAMES = new Set([
  'TandemError',
  'ApiError',
  'AuthError',
  'RateLimitError',
  'NetworkError',
  'TimeoutError',
  'AbortError',
  'ValidationError',
  'RealtimeError',
  'OutboxFullError',
  'FileError',
])

function hasName(error: unknown, name?: string): boolean {
  const e = error as { name?: unknown; code?: unknown } | null
  // A DOMException AbortError has a numeric `code`; ours is a string.
  return (
    typeof error === 'object' &&
    typeof e?.code === 'string' &&
    (name === undefined ? NAMES.has(e.name as string) : e.name === name)
  )
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
export const isOutboxFullError = (e: unknown): e is OutboxFullError => hasName(e, 'OutboxFullError')
export const isFileError = (e: unknown): e is FileError => hasName(e, 'FileError')
