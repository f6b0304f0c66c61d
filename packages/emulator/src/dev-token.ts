// The development token endpoint (`GET|POST /dev/token`): the same `createTokenHandler` an
// app backend would mount, for the local dev app, with `subject`/`scope` narrowing it.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { CUSTOMER_ID_RULE, CUSTOMER_SCOPE, isCustomerId, isCustomerScope } from '@tandem/contract'
import { createTokenHandler, toNodeListener } from '@tandem/server'
import { DEFAULTS } from './defaults.js'
import { codeForStatus } from './http-errors.js'
import { isJsonContentType, isPlainObject, JSON_TYPE } from './http-utils.js'
import type { EmulatorApp } from './shared-types.js'

interface Grant {
  subject: string
  scope: string[]
}

type Handler = (request: Request) => Promise<Response>

export function createDevTokenEndpoint(
  app: EmulatorApp,
): (req: IncomingMessage, res: ServerResponse, requestId: string, faultStatus?: number) => void {
  const key = app.keys[0]
  if (!key) throw new TypeError(`app ${app.appId} has no keys`)
  // authorize() only reads what the wrapper already validated for this very Request.
  const grants = new WeakMap<Request, Grant>()
  const inner = createTokenHandler({
    appId: app.appId,
    keyId: key.id,
    secret: key.secret,
    authorize: (request) => grants.get(request) ?? null,
  })

  return (req, res, requestId, faultStatus) => {
    const handler: Handler = async (request) => {
      if (faultStatus !== undefined) {
        return jsonError(
          requestId,
          faultStatus,
          codeForStatus(faultStatus),
          'The token endpoint is unavailable (injected fault).',
        )
      }
      if (request.method === 'GET' || request.method === 'POST') {
        const parsed = await parseGrant(request)
        if ('error' in parsed) return jsonError(requestId, parsed.status, parsed.code, parsed.error, parsed.details)
        grants.set(request, parsed)
      }
      return withRequestId(await inner(request), requestId)
    }
    toNodeListener(handler)(req, res)
  }
}

type Parsed = Grant | { error: string; status: number; code: string; details?: unknown[] }

async function parseGrant(request: Request): Promise<Parsed> {
  const url = new URL(request.url)
  const fields: { subject?: unknown; scope?: unknown } = {}
  if (url.searchParams.has('subject')) fields.subject = url.searchParams.get('subject')
  if (url.searchParams.has('scope')) fields.scope = url.searchParams.get('scope')
  const text = request.method === 'POST' ? await request.text() : ''
  if (text.trim() !== '') {
    const type = request.headers.get('content-type') ?? undefined
    if (isJsonContentType(type)) {
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch {
        return { error: 'Request body is not valid JSON.', status: 400, code: 'invalid_json' }
      }
      if (!isPlainObject(body))
        return { error: 'Request body must be a JSON object.', status: 400, code: 'invalid_body' }
      if ('subject' in body) fields.subject = body.subject
      if ('scope' in body) fields.scope = body.scope
    } else if (type?.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
      const form = new URLSearchParams(text)
      if (form.has('subject')) fields.subject = form.get('subject')
      if (form.has('scope')) fields.scope = form.get('scope')
    } else {
      return { error: 'Send the body as application/json.', status: 415, code: 'unsupported_media_type' }
    }
  }
  // Every rule the minting checks is checked here first, so a bad input is a 400 naming its field,
  // never the token handler's 500.
  const subject = fields.subject ?? DEFAULTS.devSubject
  if (typeof subject !== 'string' || subject === '' || subject.length > 256 || /\p{Cc}/u.test(subject)) {
    return invalid('subject', 'must be a non-empty string of at most 256 characters, without control characters')
  }
  const scope = parseScope(fields.scope)
  if (!scope) return invalid('scope', 'must be a space- or comma-separated string, or an array of scope strings')
  // A customer's subject becomes its channel name (support:customer:<id>): the contract's rule.
  if (isCustomerScope(scope) && !isCustomerId(subject))
    return invalid('subject', `for a customer token (scope ${CUSTOMER_SCOPE}) it ${CUSTOMER_ID_RULE}`)
  return { subject, scope }
}

function parseScope(raw: unknown): string[] | undefined {
  if (raw === undefined || raw === null) return [...DEFAULTS.devScope]
  const entries = typeof raw === 'string' ? raw.split(/[\s,]+/).filter(Boolean) : raw
  if (!Array.isArray(entries) || entries.length > 64) return undefined
  const ok = entries.every((e: unknown) => typeof e === 'string' && /^[^\s,]{1,200}$/.test(e))
  return ok ? (entries as string[]) : undefined
}

function invalid(field: string, message: string): Parsed {
  return {
    error: `Invalid ${field}: ${message}.`,
    status: 400,
    code: 'invalid_parameter',
    details: [{ field, message }],
  }
}

function jsonError(requestId: string, status: number, code: string, message: string, details?: unknown[]): Response {
  const error = { code, message, status, requestId, ...(details ? { details } : {}) }
  return new Response(JSON.stringify({ error }), {
    status,
    headers: { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-store' },
  })
}

/** Give the handler's errors the services' full shape (with `requestId`). */
async function withRequestId(response: Response, requestId: string): Promise<Response> {
  const headers = new Headers(response.headers)
  headers.set('Content-Type', JSON_TYPE)
  if (response.ok || response.status === 204) return new Response(response.body, { status: response.status, headers })
  const text = await response.text()
  try {
    const body = JSON.parse(text) as { error?: Record<string, unknown> }
    if (isPlainObject(body.error)) body.error.requestId = requestId
    return new Response(JSON.stringify(body), { status: response.status, headers })
  } catch {
    return new Response(text, { status: response.status, headers })
  }
}
