import type { TandemError } from '../errors.js'
import type { RateLimiter } from '../rate-limiter.js'
import type { TokenProvider } from '../token-provider.js'
import type { RequestOptions, ServiceName, Unsubscribe } from '../types.js'

// Files on writes (docs/uploads.md): what the progress store shows, and the seams between the
// client, the uploader (loaded on the first write with files) and the durable outbox.

/** One file of a message being sent. */
export interface FileUpload {
  name: string
  type: string
  size: number
  /** Bytes the service has acknowledged (or that are on their way in the current request). */
  bytesSent: number
  /** `waiting`: a file before it goes; `done`: the service holds all of it. */
  status: 'waiting' | 'uploading' | 'done'
  /** Never set by the SDK: a preview is the UI's (it holds the Blob, and the page's CSP decides). */
  previewUrl?: never
}

/** One write with files: its uploads, then the write itself. */
export interface MessageUpload {
  /** The write's idempotency key: `cancel(key)` takes it. */
  key: string
  service: ServiceName
  /** The write's path (`/v1/conversations/cnv_1/reply`). */
  path: string
  /** `uploading` the files, `sending` the write, `failed` for now (a durable outbox sends it again). */
  status: 'uploading' | 'sending' | 'failed'
  bytesSent: number
  bytesTotal: number
  files: readonly FileUpload[]
  /** Why it failed, while `failed`. */
  error: TandemError | null
}

export interface UploadsSnapshot {
  /** The writes with files under way, oldest first; one leaves once its write is applied or refused. */
  messages: readonly MessageUpload[]
}

/** `uploads(client)` (`@tandem/core/uploads`): the client's writes with files, for `useSyncExternalStore`. */
export interface Uploads {
  /** The same object until something changes. */
  getSnapshot: () => UploadsSnapshot
  subscribe: (listener: () => void) => Unsubscribe
  /**
   * Stops the write with this key: its uploads are aborted and deleted on the service, and the
   * write fails with a `TandemError` `upload_cancelled` (a durable outbox drops it). False when
   * there is no such write, or its files are all sent and the write itself is on its way.
   */
  cancel: (key: string) => Promise<boolean>
}

/** A file as it is checked, uploaded and stored by a durable outbox (structured-cloned). */
export interface StoredFile {
  blob: Blob
  name: string
  type: string
  size: number
}

/** Where a client's uploads store lives (like `cacheSlot`): made on first use. */
export interface UploadsSlot {
  store?: UploadsStore
}

/** The store's writer side (the uploader's): one message per write key. */
export interface UploadsStore extends Uploads {
  begin: (message: MessageUpload, cancel: () => Promise<boolean>) => void
  update: (key: string, change: (m: MessageUpload) => MessageUpload) => void
  /** Sets what `cancel(key)` does now (the uploader's, then the outbox's while it waits). */
  onCancel: (key: string, cancel: () => Promise<boolean>) => void
  end: (key: string) => void
}

/**
 * What a durable outbox gives the uploader for one stored write: the upload URLs saved before (a
 * reload resumes each file from the service's offset), a way to save one, and to drop them.
 */
export interface UploadResume {
  urls: readonly (string | undefined)[]
  save(index: number, url: string): Promise<void>
  /** The write settled: the saved URLs go. */
  forget(): Promise<void>
  /** Drops the waiting write from the outbox with `error` (a cancel while it waits for its retry). */
  drop(error: TandemError): Promise<boolean>
  /** Whether the outbox sends it again after `error` (then it stays in the store, `failed`). */
  retryable(error: TandemError): boolean
}

/** What the client's seam (files-seam.ts) gives the uploader. */
export interface FilesContext {
  auth: TokenProvider
  /** The client's fetch: the SDK's own resume HEAD and DELETE of an upload go through it. */
  fetch: typeof globalThis.fetch
  /** The tus endpoint: the support service's base URL + `UPLOAD_PATH`. */
  endpoint: string
  /** The support service's rate limiter: an upload's creation (POST) and deletion take a slot; its HEAD and PATCHes do not (nor does the service count them). */
  limiter: RateLimiter | undefined
  slot: UploadsSlot
  /** Whether writes carry an `Idempotency-Key` (`ClientOptions.idempotency`). */
  idempotency: boolean
}

/** A request as the durable outbox sends a stored write with files: the URLs it saved go with it. */
export interface FileRequest extends RequestOptions {
  resume?: UploadResume
}
