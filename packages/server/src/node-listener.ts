import { DEFAULTS } from './defaults.js'

// Structural stand-ins for node:http's IncomingMessage and ServerResponse, so this package
// can mount on node:http, connect or Vite without importing (or typing against) Node.

export interface NodeLikeIncomingMessage extends AsyncIterable<unknown> {
  method?: string | undefined
  url?: string | undefined
  headers: Record<string, string | string[] | undefined>
}

export interface NodeLikeServerResponse {
  statusCode: number
  readonly headersSent?: boolean
  setHeader(name: string, value: string | string[]): unknown
  end(chunk?: Uint8Array | string): unknown
}

const encoder = new TextEncoder()
// Hostnames, IPv4, bracketed IPv6 and a port; anything else could steer URL parsing.
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/

class PayloadTooLarge extends Error {}

/** Methods the Fetch API refuses to put in a `Request`: a handler can never see them. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK'])

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

function toHeaders(raw: NodeLikeIncomingMessage['headers']): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(raw)) {
    if (name.startsWith(':') || value === undefined) continue // HTTP/2 pseudo-headers
    for (const item of Array.isArray(value) ? value : [value]) {
      try {
        headers.append(name, item)
      } catch {
        // A header the Fetch API refuses is dropped rather than failing the request.
      }
    }
  }
  return headers
}

async function readBody(req: NodeLikeIncomingMessage, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(headerValue(req.headers['content-length']))
  if (declared > maxBytes) throw new PayloadTooLarge()
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of req) {
    const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk instanceof Uint8Array ? chunk : null
    if (bytes === null) continue
    size += bytes.byteLength
    if (size > maxBytes) throw new PayloadTooLarge()
    chunks.push(bytes)
  }
  const body = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    body.set(chunk, offset)
    offset += chunk.byteLength
  }
  return body
}

async function toRequest(req: NodeLikeIncomingMessage, maxBytes: number): Promise<Request> {
  const method = (req.method ?? 'GET').toUpperCase()
  const host = headerValue(req.headers.host)
  // Plain http: TLS usually ends at a proxy, and its forwarding headers are not ours to trust.
  const base = host !== undefined && HOST.test(host) ? `http://${host}` : 'http://localhost'
  let url: URL
  try {
    url = new URL(req.url ?? '/', base)
  } catch {
    url = new URL('/', base)
  }
  const hasBody = method !== 'GET' && method !== 'HEAD'
  const body = hasBody ? await readBody(req, maxBytes) : null
  return new Request(url, { method, headers: toHeaders(req.headers), body: body && body.byteLength > 0 ? body : null })
}

function sendJsonError(res: NodeLikeServerResponse, status: number, code: string, message: string): void {
  if (res.headersSent === true) {
    res.end()
    return
  }
  res.statusCode = status
  // After a 413 the rest of the body stays unread; closing stops the client blocking on it.
  if (status === 413) res.setHeader('Connection', 'close')
  res.setHeader('Content-Type', 'application/json')
  res.setHeader('Cache-Control', 'no-store')
  res.end(JSON.stringify({ error: { code, message, status } }))
}

async function writeResponse(
  res: NodeLikeServerResponse,
  response: Response,
  method: string | undefined,
): Promise<void> {
  const body = method === 'HEAD' || response.body === null ? null : new Uint8Array(await response.arrayBuffer())
  res.statusCode = response.status
  // Set-Cookie cannot be comma-joined, so it is written as a list where the runtime can.
  const splitCookies = typeof response.headers.getSetCookie === 'function'
  response.headers.forEach((value, name) => {
    if (!(splitCookies && name === 'set-cookie')) res.setHeader(name, value)
  })
  const cookies = splitCookies ? response.headers.getSetCookie() : []
  if (cookies.length > 0) res.setHeader('set-cookie', cookies)
  if (body === null) res.end()
  else res.end(body)
}

/** 405 for a method no `Request` can carry, with the `Allow` the handler gives for OPTIONS (HTTP wants one). */
async function methodNotAllowed(
  handler: (request: Request) => Promise<Response>,
  req: NodeLikeIncomingMessage,
  res: NodeLikeServerResponse,
): Promise<void> {
  const empty = (async function* () {})()
  const probe = await toRequest(
    { method: 'OPTIONS', url: req.url, headers: req.headers, [Symbol.asyncIterator]: () => empty },
    0,
  )
  const allow = (await handler(probe)).headers.get('allow')
  if (allow) res.setHeader('Allow', allow)
  sendJsonError(res, 405, 'method_not_allowed', `${String(req.method)} is not allowed here.`)
}

/**
 * Adapts a fetch-style handler to a `(req, res)` listener for node:http, connect or Vite.
 * Never throws: a method a `Request` cannot carry (TRACE, TRACK, CONNECT) answers 405, an
 * oversized body 413, any other failure 500.
 */
export function toNodeListener(
  handler: (request: Request) => Promise<Response>,
  options: { maxBodyBytes?: number } = {},
): (req: NodeLikeIncomingMessage, res: NodeLikeServerResponse) => void {
  // Token requests are tiny; a webhook handler mounted here can raise the cap to its own.
  const maxBytes = options.maxBodyBytes ?? DEFAULTS.maxBodyBytes
  return (req, res) => {
    const run = async (): Promise<void> => {
      try {
        if (FORBIDDEN_METHODS.has((req.method ?? '').toUpperCase())) return await methodNotAllowed(handler, req, res)
        const response = await handler(await toRequest(req, maxBytes))
        await writeResponse(res, response, req.method)
      } catch (error) {
        if (error instanceof PayloadTooLarge)
          sendJsonError(res, 413, 'payload_too_large', 'The request body is too large.')
        else sendJsonError(res, 500, 'internal_error', 'The request failed.')
      }
    }
    run().catch(() => {
      // Even writing the error failed (the socket is gone); nothing is left to tell.
    })
  }
}
