// One service request, in order: injected faults → route → auth → rate limit → body → the
// contract's input check → idempotency → handler. Every refusal is an HttpError the caller turns into JSON.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { RATE_LIMIT_HEADERS, type RateLimitBucket, type RateLimitDetail } from '@tandem/contract'
import { isCustomer } from './access.js'
import { ANONYMOUS, authenticate, carriesCredential, checkScope, requiredCapability } from './auth.js'
import { codeForStatus, HttpError } from './http-errors.js'
import { IdempotencyStore } from './idempotency.js'
import {
  canRespond,
  errorBody,
  isJsonContentType,
  parseJsonObject,
  readBody,
  sendJson,
  sendRaw,
  JSON_TYPE,
} from './http-utils.js'
import type { RouteResult } from './resource-routes.js'
import type { EmulatorState } from './state.js'
import type { Service } from './shared-types.js'

export interface ServiceRequest {
  req: IncomingMessage
  res: ServerResponse
  requestId: string
  service: Service
  /** The path below the service prefix, e.g. `/v1/resources`. */
  path: string
  query: URLSearchParams
  /** Set once the caller is authenticated, for the access log. */
  app?: string
}

export async function handleServiceRequest(state: EmulatorState, r: ServiceRequest): Promise<void> {
  const { req, res, service } = r
  const method = req.method ?? 'GET'
  // Until we know the caller, the RateLimit-* headers describe the plan (a full bucket);
  // they are replaced by the caller's own bucket once authenticated.
  setHeaders(res, state.limiter.peek(undefined, service)?.headers)

  const delay = state.faults.takeLatency(service)
  if (delay > 0) await state.sleeper.sleep(delay)
  if (!canRespond(res)) return

  let dropAfter = false
  const fault = state.faults.take(service)
  switch (fault?.kind) {
    case 'drop':
      if (fault.when === 'before') return void req.socket.destroy()
      dropAfter = true
      break
    case 'respond':
      // Off-contract on purpose (HTML, truncated JSON): marked, so a conformance check can tell.
      res.setHeader('X-Emulator-Fault', 'respond')
      return sendRaw(res, fault.status, fault.body, fault.contentType ?? JSON_TYPE)
    case 'fail': {
      const retry =
        fault.retryAfterSeconds !== undefined ? { 'Retry-After': String(fault.retryAfterSeconds) } : undefined
      throw new HttpError(
        fault.status,
        fault.code ?? codeForStatus(fault.status),
        'Injected failure (emulator fault).',
        // Every 429 names its bucket (the contract's RateLimitedError): an injected one is the app's.
        fault.status === 429 ? [{ bucket: 'app' }] : undefined,
        retry,
      )
    }
    case 'rateLimit':
      state.stats.rateLimited++
      throw rateLimited(fault.retryAfterSeconds, 'app')
  }

  const match = state.routers[service].match(method, r.path)
  if (match instanceof HttpError) throw match

  const handler = match.route.handler
  // A token-free route (`security: []`) still refuses a credential sent the wrong way (in the URL,
  // a raw key from a page) or a bad one; sent none, the caller is nobody, with no app to charge.
  const anonymous = handler.public === true && !carriesCredential(req, r.query)
  const auth = anonymous
    ? { ok: true as const, principal: ANONYMOUS }
    : await authenticate(req, r.query, state.appsById)
  if (!auth.ok) {
    // Show the bucket without spending from it: refused callers do not consume tokens.
    setHeaders(res, state.limiter.peek(auth.app, service)?.headers)
    throw auth.error
  }
  const { principal } = auth
  if (!anonymous) {
    r.app = principal.app
    // A customer draws on its own bucket first, then on the app's (docs/services/support.md, "Quotas").
    const customer = isCustomer(principal) ? { customer: principal.subject } : {}
    // An unmetered route (a chunk of an upload) spends nothing; its headers show the bucket as it is.
    const decision =
      handler.metered === false ? undefined : state.limiter.take({ app: principal.app, ...customer }, service)
    setHeaders(res, decision?.headers)
    if (decision && !decision.allowed) {
      state.stats.rateLimited++
      throw rateLimited(decision.retryAfterSeconds ?? 1, decision.bucket)
    }
  }
  if (handler.public !== true) {
    const required = handler.capability ? handler.capability(match.params) : requiredCapability(service, method)
    const scopeError = checkScope(principal, required, { customers: handler.customers === true })
    if (scopeError) throw scopeError
  }

  const origin = originOf(req, state.publicUrl.get())
  const check = state.inputChecks[service].get(match.route)
  if (handler.stream) {
    // Its path, query and headers (tus's) against the contract; its body is not JSON, and is its own.
    check?.({ params: { service, ...match.params }, query: r.query, headers: req.headers, body: undefined })
    return handler.stream({ req, res, principal, requestId: r.requestId, params: match.params, query: r.query, origin })
  }

  const raw = handler.write ? await readBody(req, state.maxBodyBytes) : Buffer.alloc(0)
  if (raw.length > 0 && !isJsonContentType(req.headers['content-type'])) {
    throw new HttpError(415, 'unsupported_media_type', 'Send the request body as application/json.')
  }
  const body = parseJsonObject(raw)
  // Path, query, headers and body against the OpenAPI operation: handlers see only what it allows.
  check?.({ params: { service, ...match.params }, query: r.query, headers: req.headers, body })

  const key = req.headers['idempotency-key']
  // Nobody's keys would be everybody's: a token-free route takes none (the contract lists none for it).
  const idempotencyKey = handler.write && !anonymous && typeof key === 'string' ? key : undefined
  const fingerprint = idempotencyKey ? IdempotencyStore.fingerprint(method, `/${service}${r.path}`, raw) : ''
  // Keys are scoped per principal (the token's subject, agent or customer; the raw key by its id,
  // apart from tokens, so a token whose subject reads `key:<keyId>` is still someone else): two agents
  // of one app, like two customers, may pick the same key and never replay each other's answer.
  const keyOwner = `${principal.app}\u0000${principal.via}\u0000${principal.subject}`
  if (idempotencyKey) {
    const seen = state.idempotency.lookup(keyOwner, idempotencyKey, fingerprint)
    if (seen.kind === 'mismatch') {
      throw new HttpError(
        422,
        'idempotency_key_reused',
        'This Idempotency-Key was already used for a different request.',
      )
    }
    if (seen.kind === 'replay') {
      if (dropAfter) return void req.socket.destroy()
      return sendJson(res, seen.response.status, seen.response.body, { 'Idempotent-Replayed': 'true' })
    }
  }

  let result: RouteResult
  try {
    result = handler.run({
      store: state.stores[service],
      params: match.params,
      query: r.query,
      body,
      principal,
      requestId: r.requestId,
      origin,
      ...(idempotencyKey ? { idempotencyKey } : {}),
      publishChange(collection, { event, ...data }) {
        state.modules.realtime.publish(principal.app, `${service}:${collection}`, event, data)
      },
      require(capability) {
        const error = checkScope(principal, capability)
        if (error) throw error
      },
    })
  } catch (err) {
    // A deterministic refusal of a keyed write is remembered too, so a retry sees the same answer;
    // a temporary one (an upload still arriving, a rate limit, a failure of ours) is not: a retry may pass.
    if (!(err instanceof HttpError) || !idempotencyKey || !isRemembered(err)) throw err
    result = { status: err.status, body: errorBody(r.requestId, err.status, err.code, err.message, err.details) }
  }
  if (result.applied) state.stats.writesApplied++
  if (idempotencyKey)
    state.idempotency.remember(keyOwner, idempotencyKey, fingerprint, { status: result.status, body: result.body })
  // 'after': the write is applied and remembered, but the caller never hears back.
  if (dropAfter) return void req.socket.destroy()
  sendJson(res, result.status, result.body)
}

/** Refusals a retry of the same keyed write would see again (so its replay may answer them). */
const TEMPORARY_CODES: ReadonlySet<string> = new Set(['upload_incomplete'])
const isRemembered = (err: HttpError): boolean =>
  err.status !== 429 && err.status < 500 && !TEMPORARY_CODES.has(err.code)

function rateLimited(retryAfterSeconds: number, bucket: RateLimitBucket): HttpError {
  const whose = bucket === 'customer' ? "this customer's own quota" : "the app's plan"
  const message = `Rate limit exceeded (${whose}); retry after ${retryAfterSeconds} s.`
  const detail: RateLimitDetail = { bucket, message: `Refused on ${whose}.` }
  return new HttpError(429, 'rate_limited', message, [{ ...detail }], {
    [RATE_LIMIT_HEADERS.retryAfter]: String(retryAfterSeconds),
  })
}

/** A host name or an IP literal (v4, or v6 in brackets), and maybe a port: nothing else is a Host. */
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/

/**
 * The origin a REST answer's links are minted under: how the caller reached us (`Host`, as a
 * browser or a proxy in front sent it) when it is a valid host[:port], else the emulator's own
 * (`publicUrl`). Only the answer to that caller carries it: nothing stored, no frame, no webhook.
 * The scheme is the connection's (X-Forwarded-Proto is not read).
 */
function originOf(req: IncomingMessage, own: string): string {
  const host = req.headers.host
  if (!host || host.length > 255 || !HOST.test(host)) return own
  const secure = (req.socket as { encrypted?: boolean }).encrypted === true
  return `${secure ? 'https' : 'http'}://${host}`
}

function setHeaders(res: ServerResponse, headers: Record<string, string> | undefined): void {
  if (!headers || !canRespond(res)) return
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value)
}
