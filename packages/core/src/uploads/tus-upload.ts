import { isUploadId } from '@tandem/contract'
import { Upload, type HttpRequest } from 'tus-js-client'
import { ApiError, type TandemError } from '../errors.js'
import type { RateLimiter } from '../rate-limiter.js'
import type { TokenProvider } from '../token-provider.js'
import { tusError } from './tus-errors.js'
import type { StoredFile } from './types.js'

// One file sent by tus 1.0.0 with tus-js-client (its chunking, offsets and resume; none of ours).
// Its own retries are off: a failure goes back to the caller, or to the durable outbox, whose one
// backoff sends the write again (resuming from the service's offset by the saved URL).

export interface SendFileOptions {
  file: StoredFile
  /** `files[i]`: where an error says it happened. */
  field: string
  endpoint: string
  chunkSize: number
  auth: TokenProvider
  limiter: RateLimiter | undefined
  /** Saved before (a reload): resumed from the service's offset (a HEAD), else a new upload. */
  uploadUrl: string | undefined
  onUrl: (url: string) => void
  onProgress: (bytesSent: number) => void
}

export interface SendingFile {
  /** Resolves with the upload's id once the service holds every byte. */
  readonly done: Promise<string>
  /** Stops sending; `terminate`: the upload is deleted on the service too (tus DELETE). */
  abort(terminate: boolean): Promise<void>
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

/** The id of an upload at `url`: its last path segment, when it is one the contract allows. */
export function uploadIdOf(url: string): string | undefined {
  try {
    const id = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '')
    return isUploadId(id) ? id : undefined
  } catch {
    return undefined
  }
}

export function sendFile(o: SendFileOptions): SendingFile {
  let token: string | undefined
  /** Aborted with the upload: a request waiting for its rate-limit slot never goes. */
  const stopped = new AbortController()
  let replayed = false
  let settle: { resolve: (id: string) => void; reject: (e: TandemError) => void }
  const done = new Promise<string>((resolve, reject) => (settle = { resolve, reject }))

  const upload: Upload = new Upload(o.file.blob, {
    endpoint: o.endpoint,
    uploadUrl: o.uploadUrl ?? null,
    chunkSize: o.chunkSize,
    retryDelays: null,
    metadata: { filename: o.file.name, filetype: o.file.type },
    uploadSize: o.file.size,
    fileReader: blobReader,
    // The URL is kept by the caller (the outbox's storage), never in tus's localStorage.
    storeFingerprintForResuming: false,
    fingerprint: () => Promise.resolve(''),
    removeFingerprintOnSuccess: false,
    // The token per request, in a header (never in the URL); a rate-limit slot first, as REST calls take.
    async onBeforeRequest(req: HttpRequest) {
      // A DELETE (the termination an abort asks for) goes after the abort; the others do not.
      await o.limiter?.acquire(req.getMethod() === 'DELETE' ? undefined : stopped.signal)
      token = await o.auth.getToken()
      req.setHeader('Authorization', `Bearer ${token}`)
    },
    onUploadUrlAvailable: () => upload.url && o.onUrl(upload.url),
    onProgress: (sent) => o.onProgress(sent),
    onSuccess() {
      const id = upload.url ? uploadIdOf(upload.url) : undefined
      if (id) return settle.resolve(id)
      settle.reject(
        new ApiError(`${o.field}: the service named the upload with no upload id`, { code: 'bad_response' }),
      )
    },
    onError(thrown) {
      const error = tusError(thrown, o.field)
      // A refused token: once, a fresh one and the same upload again (as the REST pipeline's one replay).
      if (error.status === 401 && !replayed) {
        replayed = true
        o.auth.invalidate(token)
        return upload.start()
      }
      settle.reject(error)
    },
  })
  upload.start()
  return {
    done,
    abort(terminate) {
      stopped.abort()
      return upload.abort(terminate)
    },
  }
}
