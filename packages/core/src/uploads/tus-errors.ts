import type { DetailedError, HttpResponse } from 'tus-js-client'
import { parseRetryAfter } from '../backoff.js'
import { ApiError, AuthError, NetworkError, RateLimitError, type TandemError } from '../errors.js'
import { redact } from '../redact.js'

// A tus request's failure as the error class a REST refusal of the same status gets: the service
// answers tus refusals with its usual JSON error body (code, message, request id).

/** The service's `{ error: { code, message, details } }`, tolerant of any body. */
function readBody(response: HttpResponse): { code?: string; message?: string; details?: unknown } {
  try {
    const e = (JSON.parse(response.getBody() ?? '') as { error?: Record<string, unknown> } | null)?.error
    if (typeof e !== 'object' || e === null) return {}
    const cut = (v: unknown, n: number) => (typeof v === 'string' ? v.slice(0, n) : undefined)
    return { code: cut(e.code, 100), message: cut(e.message, 500), details: e.details }
  } catch {
    return {}
  }
}

/** `where`: the file's field (`files[0]`), never a URL (an upload URL names the upload, a query could hold anything). */
export function tusError(thrown: unknown, where: string): TandemError {
  const response = (thrown as Partial<DetailedError> | null)?.originalResponse
  if (!response)
    return new NetworkError(`${where}: network error (support unreachable while uploading)`, {
      code: 'network_error',
      cause: thrown,
    })
  const status = response.getStatus()
  const requestId = response.getHeader('x-request-id') ?? undefined
  const body = readBody(response)
  const code = body.code ?? `http_${status}`
  const text = `${where}: ${status} ${code}${body.message ? ` — ${body.message}` : ''}`
  const message = redact(requestId ? `${text} (request ${requestId})` : text)
  const init = { code, status, requestId, details: body.details }
  if (status === 401 || status === 403) return new AuthError(message, init)
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(response.getHeader('retry-after') ?? null) ?? 1_000
    return new RateLimitError(message, { ...init, retryAfterMs })
  }
  return new ApiError(message, init)
}
