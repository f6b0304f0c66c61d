// Files on conversations (docs/uploads.md): uploads by tus 1.0.0 (tus.io, resumable), the limits
// the service enforces and the SDK checks before a byte goes, and how downloads are handed out
// (short-lived signed URLs: no token is ever in a URL). The service, the emulator, the SDK and
// the messenger read these rules from here.

import { UNSHOWABLE } from './unshowable.js'

/**
 * The tus endpoint under the support service's base URL (POST creates; HEAD, PATCH, DELETE at
 * `<endpoint>/<id>`). Rate limits: the creation POST and a DELETE count against the caller's
 * per-request limit like any request; an upload's HEAD and PATCH requests do not (a file of
 * UPLOADS.maxFileBytes is 20 PATCHes of UPLOADS.chunkBytes, a message up to 5 files), so a client
 * takes no rate-limit slot for them either. Only the upload's owner may HEAD, PATCH or DELETE it.
 */
export const UPLOAD_PATH = '/v1/uploads'

/** Files' limits and numbers. */
export const UPLOADS = {
  /** One file's bytes, at most (tus `Upload-Length`; the creation is refused 413 `upload_too_large`). */
  maxFileBytes: 10 * 1024 * 1024,
  /** Files one message references, at most (400 `too_many_files`). */
  filesPerMessage: 5,
  /**
   * The bytes one customer holds in uploads (complete or under way, attached or not), at most:
   * a creation that would pass it is refused 413 `upload_quota_exceeded`. Agents have no quota.
   */
  customerQuotaBytes: 50 * 1024 * 1024,
  /** The SDK sends a file in PATCHes of this many bytes: a cut connection costs at most one. */
  chunkBytes: 512 * 1024,
  /** A download URL works this long after the answer that carried it was made (seconds). */
  downloadTtlSeconds: 300,
  /** An upload no message references is deleted this long after it was created (ms). */
  unattachedTtlMs: 24 * 60 * 60 * 1000,
  /** A file's `name` in characters (metadata `filename`; longer is refused 400). */
  nameChars: 255,
} as const

/**
 * The media types a file may declare (tus metadata `filetype`); the service checks the file's first
 * bytes against it when the upload completes and refuses a mismatch (415 `upload_type_mismatch`,
 * the upload deleted). Anything else is refused at creation (415 `upload_type_not_allowed`).
 */
export const UPLOAD_MEDIA_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
] as const
export type UploadMediaType = (typeof UPLOAD_MEDIA_TYPES)[number]
export const isUploadMediaType = (value: unknown): value is UploadMediaType =>
  (UPLOAD_MEDIA_TYPES as readonly unknown[]).includes(value)
/** The types a messenger shows as a thumbnail (`<img>`); the rest are links. */
export const IMAGE_MEDIA_TYPES: readonly UploadMediaType[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp']

/**
 * A message needs text or files: its `text` may be blank only when `attachments` names at least
 * one upload (else 400 `invalid_body` with this sentence).
 */
export const TEXT_OR_FILES_RULE = 'needs text that is not blank, or at least one file in attachments'

/**
 * A file's name (tus metadata `filename`): 1 to UPLOADS.nameChars characters, with no control or
 * bidirectional-override characters (U+202E would show `gpj.exe` as `exe.jpg`) and no `/` or `\\`
 * (a name, never a path). Else the creation is refused 400 `invalid_parameter` with UPLOAD_NAME_RULE.
 */
export const UPLOAD_NAME = new RegExp(`^[^${UNSHOWABLE}/\\\\]{1,${UPLOADS.nameChars}}$`, 'u')
export const UPLOAD_NAME_RULE = `must be 1 to ${UPLOADS.nameChars} characters, with no control or bidirectional-override characters and no / or \\`
export const isUploadName = (value: unknown): value is string => typeof value === 'string' && UPLOAD_NAME.test(value)

/** An upload's id (the last segment of its tus URL). */
export const UPLOAD_ID = /^upl_[A-Za-z0-9]{16,40}$/
export const isUploadId = (value: unknown): value is string => typeof value === 'string' && UPLOAD_ID.test(value)

/**
 * A customer's typing (POST `/support/v1/me/conversations/{id}/typing`): shown to the agents on the
 * resource-presence channel as a member the service enters for the customer, and lapsed by the
 * service this long after the last `typing: true` (a client renews it while the person types).
 */
export const CUSTOMER_TYPING_TTL_MS = 5_000
/** While the customer types, the SDK says so again at most this often (well inside the TTL). */
export const CUSTOMER_TYPING_RENEW_MS = 2_000
/** The clientId prefix of the members the service enters for customers on the presence channel (agents' may not start so). */
export const CUSTOMER_PRESENCE_PREFIX = 'customer:'
export const customerPresenceClientId = (customerId: string): string => `${CUSTOMER_PRESENCE_PREFIX}${customerId}`
