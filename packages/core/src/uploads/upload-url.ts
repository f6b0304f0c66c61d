import { isUploadId } from '@tandem/contract'
import { abortError } from '../abort.js'
import { NetworkError, TandemError } from '../errors.js'
import type { FilesContext } from './types.js'
import { answerError } from './tus-errors.js'

// An upload's URL: only one of the tus endpoint's origin ever gets the token (a Location the
// service sent, a URL read back from storage), and the SDK's own requests to it: the HEAD that
// decides whether a saved upload resumes, and the DELETE of one.

/** Whether `url` is on the endpoint's origin (where the token may go). */
export function sameOrigin(url: string, endpoint: string): boolean {
  try {
    return new URL(url).origin === new URL(endpoint).origin
  } catch {
    return false
  }
}

/** The id of an upload at `url`: its last path segment, when it is one the contract allows. */
export function uploadIdOf(url: string): string | undefined {
  try {
    const id = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '')
    return isUploadId(id) ? id : undefined
  } catch {
    return undefined
  }
}

/** A saved URL (storage is not trusted), its dot segments resolved: used only when it is an upload of this endpoint. */
export function savedUploadUrl(url: unknown, endpoint: string): string | undefined {
  if (typeof url !== 'string') return undefined
  try {
    const href = new URL(url).href
    return href.startsWith(`${new URL(endpoint).href}/`) && sameOrigin(href, endpoint) && uploadIdOf(href)
      ? href
      : undefined
  } catch {
    return undefined
  }
}

type Context = Pick<FilesContext, 'auth' | 'fetch' | 'limiter'>

async function tusRequest(method: 'HEAD' | 'DELETE', url: string, c: Context, signal?: AbortSignal) {
  const token = await c.auth.getToken({ signal })
  const response = await c.fetch(url, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Tus-Resumable': '1.0.0' },
    redirect: 'error', // the token never follows a redirect elsewhere
    signal,
  })
  return { token, response }
}

/**
 * Whether the saved upload at `url` resumes (`resume`) or is gone (`gone`: 404 or 410 only, then a
 * new upload starts and nothing is deleted). Anything else is an error the outbox sends again
 * after its backoff: never a silent new upload beside a partial one.
 */
export async function checkResume(
  url: string,
  field: string,
  c: Context,
  signal: AbortSignal,
): Promise<'resume' | 'gone'> {
  for (let replayed = false; ; replayed = true) {
    let answer: Awaited<ReturnType<typeof tusRequest>>
    try {
      answer = await tusRequest('HEAD', url, c, signal)
    } catch (thrown) {
      if (signal.aborted) throw abortError(signal)
      if (thrown instanceof TandemError) throw thrown // the token provider's
      throw new NetworkError(`${field}: network error (support unreachable while resuming)`, {
        code: 'network_error',
      })
    }
    const { response, token } = answer
    if (response.status === 404 || response.status === 410) return 'gone'
    if (response.ok) return 'resume'
    if (response.status === 401 && !replayed) {
      c.auth.invalidate(token)
      continue
    }
    const header = (name: string) => response.headers.get(name) ?? undefined
    const error = answerError({ status: response.status, header, body: undefined }, field)
    if (error.name !== 'ApiError' || (error.status ?? 500) >= 500) throw error
    // A 4xx the resume does not know: for now too (a new upload would leave the partial one behind).
    throw new NetworkError(error.message, {
      code: 'upload_resume_failed',
      status: error.status,
      requestId: error.requestId,
    })
  }
}

/** Deletes the upload at `url` (tus DELETE), a rate-limit slot first as the service counts it; best effort. */
export async function terminateUpload(url: string, c: Context): Promise<void> {
  try {
    await c.limiter?.acquire()
    await tusRequest('DELETE', url, c)
  } catch {
    // Left to expire on the service (`unattachedTtlMs`).
  }
}
