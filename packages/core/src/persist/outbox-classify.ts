import { asTandemError } from '../as-tandem-error.js'
import {
  AbortError,
  ApiError,
  AuthError,
  NetworkError,
  RateLimitError,
  RealtimeError,
  TandemError,
  TimeoutError,
  ValidationError,
} from '../errors.js'
import type { WireError } from './tab-channel.js'

/**
 * Whether a stored write that failed with `error` may go again: the network, a timeout, a rate
 * limit, the service's 5xx, a token endpoint that is down, a realtime error the service calls
 * temporary, a realtime client the app closed, a session that ended (the token endpoint refuses). Anything else is the service's (or the input's) refusal: the write is dropped.
 */
export function isRetryable(error: TandemError): boolean {
  const { name, code, status } = error
  if (name === 'NetworkError' || name === 'TimeoutError' || name === 'RateLimitError' || name === 'AbortError')
    return true
  // The app's session ended (its token endpoint refuses): the writes wait for the user to sign in
  // again, or for `clearPersisted()` at logout; dropping hours of offline work would be worse.
  if (code === 'token_refused') return true
  if (name === 'AuthError') return code === 'token_endpoint_unavailable'
  // `closed`: the app closed its realtime client (an unmount); the publish waits for a connect().
  if (name === 'RealtimeError') return (error as RealtimeError).temporary || code === 'closed'
  if (name === 'ApiError')
    return status === undefined || status < 400 || status >= 500 || status === 408 || status === 429
  return false
}

/** Anything thrown, as a TandemError (a bug's TypeError too: it says what happened, never a crash). */
/** A send's failure as a TandemError (a thrown non-Tandem value: `outbox_failed`). */
export const toTandemError = (thrown: unknown): TandemError =>
  asTandemError(thrown, 'outbox_failed', 'A stored write failed')

export const toWire = ({ name, code, message, status, requestId }: TandemError): WireError => ({
  name,
  code,
  message,
  status,
  requestId,
})

const CLASSES: Record<string, typeof TandemError> = {
  ApiError,
  AuthError,
  NetworkError,
  TimeoutError,
  AbortError,
  RealtimeError,
}

/** Another tab's failure, typed again by its name (the guards check `name`). */
export function fromWire(e: WireError): TandemError {
  const init = { code: e.code, status: e.status, requestId: e.requestId }
  if (e.name === 'ValidationError') return new ValidationError('request', e.message)
  if (e.name === 'RateLimitError') return new RateLimitError(e.message, { ...init, retryAfterMs: 0 })
  const Class = CLASSES[e.name] ?? TandemError
  return new Class(e.message, init)
}
