// The upload and download routes of the support service (docs/uploads.md). They run the service
// pipeline like any route (faults, auth with agent or customer tokens, rate limits, request id),
// then take the raw request: tus for uploads, the file's bytes for a signed download.
import { IMAGE_MEDIA_TYPES, UPLOAD_PATH, type UploadMediaType } from '@tandem/contract'
// tus's own header rules, run here first so that a refusal comes in the service's JSON shape.
import { validateHeader } from '@tus/server/dist/validators/HeaderValidator.js'
import type { IncomingMessage } from 'node:http'
import { HttpError } from '../http-errors.js'
import { streamOnly, type RouteHandler, type StreamContext } from '../resource-routes.js'
import type { Route } from '../router.js'
import type { UploadRegistry } from './registry.js'
import type { Signer } from './signing.js'
import type { TusEndpoint } from './tus-endpoint.js'

const notFound = () => new HttpError(404, 'upload_not_found', 'No such upload.')

/** RFC 6266: an ASCII fallback and the exact name in UTF-8 (`filename*`). */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  // Printable ASCII but the quote, backslash and percent; anything else is an underscore.
  const ascii = [...name].map((c) => (c < ' ' || c > '~' || '"\\%'.includes(c) ? '_' : c)).join('')
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${exact}`
}

/** The extension a download of each stored type ends with (a browser or OS opens it by that). */
const EXTENSIONS: Record<UploadMediaType, readonly string[]> = {
  'image/png': ['.png'],
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/gif': ['.gif'],
  'image/webp': ['.webp'],
  'application/pdf': ['.pdf'],
  'text/plain': ['.txt'],
}

/** The name a file downloads as: its own, with the stored type's extension added unless it has it (`a.html` → `a.html.txt`). */
export function downloadName(name: string, type: UploadMediaType): string {
  const ends = EXTENSIONS[type]
  return ends.some((e) => name.toLowerCase().endsWith(e)) ? name : `${name}${ends[0]}`
}

/** What @tus/server would refuse in plain text before any hook runs (a header it cannot read), as JSON. */
function headerProblem(req: IncomingMessage): HttpError | undefined {
  const bad = Object.entries(req.headers).filter(([name, value]) => {
    // As tus: Content-Type counts on a PATCH only (clients add one to anything).
    if (name === 'content-type' && req.method !== 'PATCH') return false
    return !validateHeader(name, Array.isArray(value) ? value.join(', ') : value)
  })
  if (bad.length === 0) return undefined
  const names = bad.map(([name]) => name)
  if (names.includes('content-type'))
    return new HttpError(415, 'unsupported_media_type', 'Send the bytes as application/offset+octet-stream.')
  return new HttpError(
    400,
    'invalid_parameter',
    `Invalid ${names.join(', ')}.`,
    names.map((field) => ({ field })),
  )
}

export function uploadRoutes(registry: UploadRegistry, tus: TusEndpoint, signer: Signer): Route<RouteHandler>[] {
  // Agents (`support:write`) and customers (their own role) both upload.
  // HEAD and PATCH (`metered: false`) are not counted against the rate limit: a file of
  // UPLOADS.maxFileBytes takes 20 PATCHes, and a message 5 files (UPLOAD_RATE_RULE).
  const tusRoute = (own: boolean, metered = true): RouteHandler => ({
    write: false,
    metered,
    customers: true,
    capability: () => 'support:write',
    run: streamOnly,
    stream: async ({ req, res, principal, requestId, params }: StreamContext) => {
      const id = own ? (params.id ?? '') : undefined
      if (id !== undefined) {
        // Anyone's but the caller's reads as unknown; one on a message is the message's now.
        const record = registry.mine(principal, id)
        if (!record || (req.method === 'DELETE' && record.attachedTo !== null)) throw notFound()
      }
      const problem = headerProblem(req)
      if (problem) throw problem
      await tus.handle(req, res, { principal, requestId, ...(id === undefined ? {} : { id }) })
    },
  })

  const download: RouteHandler = {
    write: false,
    public: true,
    run: streamOnly,
    stream: ({ req, res, params, query }: StreamContext) => {
      const id = params.id ?? ''
      const expires = query.get('expires')
      const now = Date.now()
      if (!signer.verify(id, expires, query.get('signature'), now))
        throw new HttpError(
          403,
          'forbidden',
          'This download link is not valid, or has expired: read the message again.',
        )
      const record = registry.get(id)
      if (!record?.complete) throw new HttpError(404, 'not_found', 'This file is gone.')
      const image = IMAGE_MEDIA_TYPES.includes(record.type)
      res.writeHead(200, {
        'Content-Type': record.type === 'text/plain' ? 'text/plain; charset=utf-8' : record.type,
        'Content-Length': String(tus.offset(id)),
        'Content-Disposition': contentDisposition(
          image ? 'inline' : 'attachment',
          downloadName(record.name, record.type),
        ),
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; sandbox",
        'Cross-Origin-Resource-Policy': 'cross-origin',
        'Cache-Control': `private, max-age=${signer.left(expires ?? '0', now)}`,
      })
      if (req.method === 'HEAD') return Promise.resolve(void res.end())
      return new Promise<void>((resolve) => {
        const file = tus.file(id)
        file.on('error', () => res.destroy())
        res.on('close', () => {
          file.destroy()
          resolve()
        })
        file.pipe(res)
      })
    },
  }

  return [
    { method: 'POST', pattern: UPLOAD_PATH, handler: tusRoute(false) },
    { method: 'HEAD', pattern: `${UPLOAD_PATH}/:id`, handler: tusRoute(true, false) },
    { method: 'PATCH', pattern: `${UPLOAD_PATH}/:id`, handler: tusRoute(true, false) },
    { method: 'DELETE', pattern: `${UPLOAD_PATH}/:id`, handler: tusRoute(true) },
    { method: 'GET', pattern: '/v1/files/:id', handler: download },
  ]
}
