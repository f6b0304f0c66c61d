// Small node:http helpers: request ids, CORS, JSON responses, bounded body reading.
import { randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { RATE_LIMIT_HEADERS } from '@tandem/contract'
import { HttpError, type ErrorDetail } from './http-errors.js'

/** What a tus client (tus-js-client) sends and reads, besides the usual. */
const TUS_REQUEST_HEADERS = ['Tus-Resumable', 'Upload-Length', 'Upload-Metadata', 'Upload-Offset']
const TUS_ANSWER_HEADERS = [
  'Location',
  'Tus-Resumable',
  'Tus-Version',
  'Tus-Extension',
  'Tus-Max-Size',
  'Upload-Offset',
  'Upload-Length',
  'Upload-Metadata',
]

/**
 * A browser client reads these: the request id, every rate limit header (the bucket too), the
 * replay mark, and tus's (an upload's URL and offset).
 */
export const EXPOSED_HEADERS = [
  'X-Request-Id',
  ...Object.values(RATE_LIMIT_HEADERS),
  'Idempotent-Replayed',
  ...TUS_ANSWER_HEADERS,
].join(', ')

const CORS_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': [
    'Authorization, Content-Type, Idempotency-Key, X-Request-Id',
    ...TUS_REQUEST_HEADERS,
  ].join(', '),
  'Access-Control-Expose-Headers': EXPOSED_HEADERS,
}

export const JSON_TYPE = 'application/json; charset=utf-8'

/** Echo a sane client-chosen id so both sides log the same one; otherwise make one. */
export function requestIdFor(req: IncomingMessage): string {
  const given = req.headers['x-request-id']
  if (typeof given === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(given)) return given
  return `req_${randomBytes(8).toString('hex')}`
}

export function setCommonHeaders(res: ServerResponse, requestId: string): void {
  res.setHeader('X-Request-Id', requestId)
  for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value)
}

export function sendPreflight(res: ServerResponse, maxAgeSeconds: number): void {
  res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, POST, PATCH, DELETE, OPTIONS')
  res.setHeader('Access-Control-Max-Age', String(maxAgeSeconds))
  res.statusCode = 204
  res.end()
}

/** False once the client is gone or a response was already sent: never write twice. */
export function canRespond(res: ServerResponse): boolean {
  return !res.headersSent && !res.writableEnded && !res.destroyed
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
  if (!canRespond(res)) return
  for (const [name, value] of Object.entries(headers ?? {})) res.setHeader(name, value)
  res.statusCode = status
  if (status === 204 || body === undefined) {
    res.end()
    return
  }
  sendRaw(res, status, JSON.stringify(body), JSON_TYPE)
}

export function sendRaw(res: ServerResponse, status: number, body: string, contentType: string): void {
  if (!canRespond(res)) return
  const bytes = Buffer.from(body, 'utf8')
  res.statusCode = status
  res.setHeader('Content-Type', contentType)
  res.setHeader('Content-Length', String(bytes.length))
  res.end(bytes)
}

export interface ErrorBody {
  error: { code: string; message: string; status: number; requestId: string; details?: ErrorDetail[] }
}

export function errorBody(
  requestId: string,
  status: number,
  code: string,
  message: string,
  details?: ErrorDetail[],
): ErrorBody {
  return { error: { code, message, status, requestId, ...(details ? { details } : {}) } }
}

export function sendError(res: ServerResponse, requestId: string, err: HttpError): void {
  sendJson(res, err.status, errorBody(requestId, err.status, err.code, err.message, err.details), err.headers)
}

export interface ParsedUrl {
  path: string
  query: URLSearchParams
}

/** Split path and query by hand: `new URL('//x/y', base)` would read `x` as a host. */
export function parseUrl(rawUrl: string | undefined): ParsedUrl {
  let url = rawUrl ?? '/'
  if (!url.startsWith('/')) {
    // absolute-form (proxies) or `*`; keep only the path part.
    try {
      const u = new URL(url)
      url = u.pathname + u.search
    } catch {
      url = '/'
    }
  }
  const q = url.indexOf('?')
  return q < 0
    ? { path: url, query: new URLSearchParams() }
    : { path: url.slice(0, q), query: new URLSearchParams(url.slice(q + 1)) }
}

/**
 * Read the body up to `maxBytes`. Past the limit we stop buffering and throw 413; the
 * caller answers with `Connection: close` so Node discards the rest of the upload.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'])
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.reject(tooLarge(maxBytes))
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const cleanup = () => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onError)
      req.off('aborted', onAborted)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBytes) {
        cleanup()
        req.pause()
        reject(tooLarge(maxBytes))
        return
      }
      chunks.push(chunk)
    }
    const onEnd = () => {
      cleanup()
      resolve(Buffer.concat(chunks, size))
    }
    const onError = (err: Error) => {
      cleanup()
      reject(new ClientGoneError(err.message))
    }
    const onAborted = () => onError(new Error('request aborted'))
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onError)
    req.on('aborted', onAborted)
  })
}

/** The client went away mid-request: nothing to answer. */
export class ClientGoneError extends Error {
  override readonly name = 'ClientGoneError'
}

function tooLarge(maxBytes: number): HttpError {
  return new HttpError(413, 'payload_too_large', `Request body exceeds ${maxBytes} bytes.`, undefined, {
    Connection: 'close',
  })
}

/** `application/json` or any `+json` type, with parameters ignored. */
export function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false
  const type = value.split(';')[0]?.trim().toLowerCase() ?? ''
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type)
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Parse a JSON object body; empty → undefined. */
export function parseJsonObject(raw: Buffer): Record<string, unknown> | undefined {
  if (raw.length === 0) return undefined
  let value: unknown
  try {
    value = JSON.parse(raw.toString('utf8'))
  } catch {
    throw new HttpError(400, 'invalid_json', 'Request body is not valid JSON.')
  }
  if (!isPlainObject(value)) throw new HttpError(400, 'invalid_body', 'Request body must be a JSON object.')
  return value
}
