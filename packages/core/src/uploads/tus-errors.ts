import type { DetailedError, HttpResponse } from 'tus-js-client'
import { parseRetryAfter } from '../backoff.js'
import { ApiError, AuthError, NetworkError, RateLimitError, TandemError } from '../errors.js'
import { redact } from '../redact.js'

// A tus request's failure as the error class a REST refusal of the same status gets: the service
// answers tus refusals with its usual JSON error body (code, message, request id). tus's own error
// is never kept (not even as `cause`): it holds the request, whose headers carry the token.

/** The service's `{ error: { code, message, details } }`, tolerant of any body. */
function readBody(body: string | undefined): { code?: string; message?: string; details?: unknown } {
  try {
    const e = (JSON.parse(body ?? '') as { error?: Record<string, unknown> } | null)?.error
    if (typeof e !== 'object' || e === null) return {}
    const cut = (v: unknown, n: number) => (typeof v === 'string' ? v.slice(0, n) : undefined)
    return { code: cut(e.code, 100), message: cut(e.message, 500), details: e.details }
  } catch {
    return {}
  }
}

/** What caused a failure with no answer, as a plain Error of its name and message only (no request, no headers). */
function plainCause(causing: unknown): Error | undefined {
  if (causing === null || causing === undefined) return undefined
  const { name, message } = causing as { name?: unknown; message?: unknown }
  const cause = new Error(redact(typeof message === 'string' ? message.slice(0, 500) : 'request failed'))
  if (typeof name === 'string') cause.name = name.slice(0, 100)
  return cause
}

/** An answer of the service to a tus request (tus's response, or the SDK's own resume HEAD's). */
export interface TusAnswer {
  status: number
  header: (name: string) => string | undefined
  body: string | undefined
}

/** The error a refusal (non-2xx answer) of a tus request is, by its status. */
export function answerError({ status, header, body }: TusAnswer, where: string): TandemError {
  const requestId = header('x-request-id')
  const read = readBody(body)
  const code = read.code ?? `http_${status}`
  const text = `${where}: ${status} ${code}${read.message ? ` — ${read.message}` : ''}`
  const message = redact(requestId ? `${text} (request ${requestId})` : text)
  const init = { code, status, requestId, details: read.details }
  if (status === 401 || status === 403) return new AuthError(message, init)
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(header('retry-after') ?? null) ?? 1_000
    return new RateLimitError(message, { ...init, retryAfterMs })
  }
  // An upload busy (423) or an offset that moved (409): for now; the next attempt asks its offset again.
  if (status === 409 || status === 423) return new NetworkError(message, init)
  return new ApiError(message, init)
}

/** `where`: the file's field (`files[0]`), never a URL (an upload URL names the upload, a query could hold anything). */
export function tusError(thrown: unknown, where: string): TandemError {
  const detailed = thrown as Partial<DetailedError> | null
  // Ours, thrown before a request went (the token provider's failure, a refused URL, an abort): as it is.
  if (thrown instanceof TandemError) return thrown
  if (detailed?.causingError instanceof TandemError) return detailed.causingError
  const response: HttpResponse | null | undefined = detailed?.originalResponse
  if (!response)
    return new NetworkError(`${where}: network error (support unreachable while uploading)`, {
      code: 'network_error',
      cause: plainCause(detailed?.causingError ?? thrown),
    })
  const header = (name: string) => response.getHeader(name) ?? undefined
  return answerError({ status: response.getStatus(), header, body: response.getBody() ?? undefined }, where)
}
