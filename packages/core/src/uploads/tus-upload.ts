import { Upload, type HttpRequest } from 'tus-js-client'
import { abortError } from '../abort.js'
import { ApiError, RateLimitError, TandemError } from '../errors.js'
import { clampDelay, sleep } from '../timers.js'
import { tusError } from './tus-errors.js'
import type { FilesContext, StoredFile } from './types.js'
import { checkResume, sameOrigin, uploadIdOf } from './upload-url.js'

// One file sent by tus 1.0.0 with tus-js-client (its chunking and offsets). Its own retries are
// off: a failure goes back to the caller, or to the durable outbox, whose one backoff sends the
// write again; but a 429 is waited here (its Retry-After, a few times), as the REST pipeline does.
// A saved upload resumes only after the SDK's own HEAD says it is there (upload-url.ts).

export { uploadIdOf } from './upload-url.js'

/** A 429 is waited at most this many times per file, each wait at most this long. */
const THROTTLED_TRIES = 3
const MAX_RETRY_AFTER_MS = 60_000

export interface SendFileOptions extends Pick<FilesContext, 'auth' | 'fetch' | 'limiter' | 'endpoint'> {
  file: StoredFile
  /** `files[i]`: where an error says it happened. */
  field: string
  chunkSize: number
  /** Saved before (a reload): resumed from the service's offset, else a new upload. */
  uploadUrl: string | undefined
  onUrl: (url: string) => void
  onProgress: (bytesSent: number) => void
}

export interface SendingFile {
  /** Resolves with the upload's id once the service holds every byte. */
  readonly done: Promise<string>
  /** Stops sending (a creation on its way is let finish first, so that its URL is known and can be deleted). */
  abort(): Promise<void>
}

/**
 * tus-js-client's Node build reads only Buffers and streams, its browser build Blobs: one reader
 * for both, which hands each chunk over as bytes (a Uint8Array both HTTP stacks send; its `size`
 * gives Node's request its Content-Length). One chunk is in memory at a time.
 */
const blobReader = {
  openFile: (blob: Blob) =>
    Promise.resolve({
      size: blob.size,
      async slice(start: number, end: number) {
        const value = new Uint8Array(await blob.slice(start, end).arrayBuffer())
        return { value: Object.assign(value, { size: value.length }), done: end >= blob.size }
      },
      close() {},
    }),
}

const refusedUrl = (field: string) =>
  new TandemError(`${field}: the service named an upload on another origin; the token is not sent there`, {
    code: 'upload_url_refused',
  })

export function sendFile(o: SendFileOptions): SendingFile {
  /** Aborted with the upload: a request waiting for its rate-limit slot never goes. */
  const stopped = new AbortController()
  let url = o.uploadUrl
  let token: string | undefined
  let current: Upload | undefined
  /** A creation POST on its way, and its end: an abort waits for it (then the upload's URL is known). */
  let creating: Promise<void> | undefined
  let created: (() => void) | undefined

  /** One tus run: from `from` (resumed) or a new upload. */
  const attempt = (from: string | undefined) =>
    new Promise<string>((resolve, reject) => {
      const upload: Upload = new Upload(o.file.blob, {
        endpoint: o.endpoint,
        uploadUrl: from ?? null,
        chunkSize: o.chunkSize,
        retryDelays: null,
        metadata: { filename: o.file.name, filetype: o.file.type },
        uploadSize: o.file.size,
        fileReader: blobReader,
        // The URL is kept by the caller (the outbox's storage), never in tus's localStorage.
        storeFingerprintForResuming: false,
        fingerprint: () => Promise.resolve(''),
        removeFingerprintOnSuccess: false,
        // The token per request, in a header (never in the URL), and only to the endpoint's origin.
        async onBeforeRequest(req: HttpRequest) {
          const method = req.getMethod()
          if (stopped.signal.aborted) throw abortError(stopped.signal)
          if (!sameOrigin(req.getURL(), o.endpoint)) throw refusedUrl(o.field)
          // A resumed upload is never replaced by a new one behind the caller's back (tus does after a failed HEAD).
          if (method === 'POST' && from !== undefined)
            throw new ApiError(`${o.field}: the saved upload could not be resumed`, { code: 'upload_resume_failed' })
          // The service counts an upload's creation (and deletion) against the rate limit, not its HEAD and PATCHes.
          if (method === 'POST') await o.limiter?.acquire(stopped.signal)
          token = await o.auth.getToken({ signal: stopped.signal })
          if (stopped.signal.aborted) throw abortError(stopped.signal)
          req.setHeader('Authorization', `Bearer ${token}`)
          if (method === 'POST') creating = new Promise<void>((end) => (created = end))
        },
        onUploadUrlAvailable() {
          if (upload.url && sameOrigin(upload.url, o.endpoint)) {
            url = upload.url
            o.onUrl(upload.url)
          }
          created?.()
        },
        onProgress: (sent) => o.onProgress(sent),
        onSuccess() {
          const id = upload.url ? uploadIdOf(upload.url) : undefined
          if (id) return resolve(id)
          reject(new ApiError(`${o.field}: the service named the upload with no upload id`, { code: 'bad_response' }))
        },
        onError(thrown) {
          created?.()
          reject(tusError(thrown, o.field))
        },
      })
      current = upload
      upload.start()
    })

  async function run(): Promise<string> {
    let replayed = false
    for (let throttled = 0; ;) {
      try {
        // A saved upload: the service's word first (404/410: gone, a new one; anything else: an error).
        if (url !== undefined && (await checkResume(url, o.field, o, stopped.signal)) === 'gone') url = undefined
        return await attempt(url)
      } catch (thrown) {
        if (stopped.signal.aborted) throw abortError(stopped.signal)
        const error = thrown as TandemError
        // A refused token: once, a fresh one and the same upload again (as the REST pipeline's one replay).
        if (error.status === 401 && !replayed) {
          replayed = true
          o.auth.invalidate(token)
          continue
        }
        if (!(error instanceof RateLimitError) || ++throttled > THROTTLED_TRIES) throw error
        const waitMs = clampDelay(error.retryAfterMs, 0, MAX_RETRY_AFTER_MS) ?? 1_000
        o.limiter?.pause(waitMs)
        await sleep(waitMs, stopped.signal)
      }
    }
  }

  const done = run()
  done.catch(() => undefined) // the caller may stop listening first (a cancel)
  return {
    done,
    async abort() {
      stopped.abort()
      // A creation on its way is let finish: its answer names the upload, which the caller then deletes.
      await creating
      await current?.abort(false)
    },
  }
}
