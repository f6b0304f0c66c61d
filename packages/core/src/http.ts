import { createFetch, type $Fetch, type FetchContext, type FetchHooks } from 'ofetch'
import { abortError, throwIfAborted, withSignal } from './abort.js'
import { createAttemptSignals } from './attempt-signals.js'
import { randomId } from './random-id.js'
import { sleep } from './timers.js'
import { ResponseTooLarge, limitBody } from './body-limit.js'
import { createDeadline, type Deadline } from './deadline.js'
import { HOOK_NAMES, type ClientHooks, type Hook } from './hooks.js'
import { ApiError, NetworkError, RateLimitError, TandemError, TimeoutError, isAbortError } from './errors.js'
import type { SafeEmitter } from './events.js'
import { prepare, whereOf, type Call } from './http-call.js'
import { classify, parseJson, readRateLimit, type Outcome, type Step } from './http-classify.js'
import type { LogFn } from './logger.js'
import type { RateLimiter } from './rate-limiter.js'
import type { TokenProvider } from './token-provider.js'
import { splitBaseUrl } from './url-rules.js'
import type { ClientEvents, RequestOptions, RetryOptions, ServiceName } from './types.js'

export interface HttpOptions {
  /** Looked up per request when absent, so a fetch patched after createClient (MSW, tests) is used. */
  fetch?: typeof globalThis.fetch
  auth: TokenProvider
  baseUrls: Record<ServiceName, string>
  limiters: Partial<Record<ServiceName, RateLimiter>>
  retry: RetryOptions | false
  /** Each call's deadline (undefined: none). */
  timeoutMs: number | undefined
  /** The longest wait for a rate-limit slot (undefined: the deadline's). */
  maxQueueWaitMs: number | undefined
  attemptTimeoutMs: number
  maxResponseBytes: number
  idempotency: boolean
  hooks?: ClientHooks
  /** Absent when the client has no logger. */
  log?: LogFn
  emitter: SafeEmitter<ClientEvents>
}

export type Http = <T = unknown>(options: RequestOptions) => Promise<T>

const JSON_TYPE = 'application/json'

/**
 * The request pipeline around ofetch: prepare → (token, rate-limit slot) → attempt → classify →
 * retry. ofetch joins the URL, serialises the query and the JSON body, parses the answer strictly
 * and runs the hooks; its own retry and timeout are off, because Tandem's pipeline owns both:
 * full-jitter backoff with Retry-After, idempotency keys, the one 401 replay, typed errors.
 */
export function createHttp(options: HttpOptions): Http {
  const { auth, emitter, log } = options
  const inflight: Record<ServiceName, number> = { maps: 0, support: 0, realtime: 0 }
  const attemptSignal = createAttemptSignals()
  // ofetch appends paths to a base as text: the base goes without its query, which joins each request's.
  const baseUrls = {} as Record<ServiceName, string>
  const baseQueries: Partial<Record<ServiceName, Record<string, string | string[]>>> = {}
  for (const [service, url] of Object.entries(options.baseUrls) as [ServiceName, string][]) {
    const { base, query } = splitBaseUrl(url)
    baseUrls[service] = base
    if (query) baseQueries[service] = query
  }
  const $fetch: $Fetch = createFetch({
    // Without options.fetch, the global is looked up per request (MSW or a test may patch it later).
    // Every answer is read through the size cap.
    fetch: (input, init) =>
      (options.fetch ?? globalThis.fetch)(input, init).then((r) => limitBody(r, options.maxResponseBytes)),
  }) // Headers and AbortController: ofetch's defaults, the globals
  // Given with each request, not as `$fetch.create` defaults: ofetch merges defaults into every
  // request's options by a spread that costs a fast request more than the rest of its options.
  const { onRequest, onRequestError, onResponse, onResponseError } = toFetchHooks(options.hooks)

  /**
   * Step 2: a token, then a rate-limit slot, then the token again (the queue may have outlived a
   * refresh), all within the call's deadline: a slot further away than that fails at once.
   */
  async function admit(call: Call, deadline: Deadline): Promise<string> {
    const { signal } = deadline
    throwIfAborted(signal)
    // Token first: a slot taken while a token is being fetched would be sent late, in a burst.
    const token = await auth.getToken({ signal })
    const maxQueueWait = call.maxQueueWaitMs ?? options.maxQueueWaitMs ?? Infinity
    // Read before the wait: once it is over, the pause that caused it is too.
    const reason = call.limiter && call.limiter.pausedMs() > 0 ? 'retry-after' : 'bucket'
    const waited = call.limiter ? await call.limiter.acquire(signal, Math.min(deadline.remaining(), maxQueueWait)) : 0
    if (waited === 0) return token
    emitter.emit('rateLimitWait', {
      callId: call.callId,
      service: call.service,
      waitMs: waited,
      queued: call.limiter!.queued,
      reason,
    })
    log?.('debug', `rate limit: waited ${waited} ms`, { service: call.service })
    return auth.getToken({ signal }) // cached, unless the wait outlived a refresh
  }

  /** Step 3: one exchange through ofetch. Every failure comes back typed; an HTTP error status comes back as a response. */
  async function attempt(call: Call, token: string, deadline: Deadline): Promise<Outcome> {
    const { service, method, path } = call
    // Pairs, not a record: fetch's Headers drops a record's own `__proto__` key.
    const headers = new Headers([['accept', JSON_TYPE], ...Object.entries(call.headers)])
    headers.set('authorization', `Bearer ${token}`)
    if (call.idempotencyKey) headers.set('idempotency-key', call.idempotencyKey)
    const guard = attemptSignal(deadline.signal, Math.min(options.attemptTimeoutMs, deadline.remaining()))
    const started = Date.now()
    inflight[service]++
    try {
      const exchange = $fetch.raw(path, {
        baseURL: call.baseURL,
        method,
        query: baseQueries[service] ? { ...baseQueries[service], ...call.query } : call.query,
        body: call.body as Record<string, unknown> | undefined,
        headers,
        signal: guard.signal,
        // Never followed: the services do not redirect, so one is a misconfiguration or an attack (classify names it).
        redirect: 'manual',
        retry: false,
        parseResponse: parseJson,
        onRequest,
        onRequestError,
        onResponse,
        onResponseError,
      })
      // The platform fetch honours its signal; a custom one might not, and must not hang us.
      const response = options.fetch ? await withSignal(exchange, guard.signal) : await exchange
      return { response, durationMs: Date.now() - started }
    } catch (thrown) {
      const durationMs = Date.now() - started
      const error = thrown as { name?: string; message?: string; response?: Response; options?: { headers?: Headers } }
      if (error.name === 'FetchError') {
        // It becomes a cause we hand out: no query string in its message, no token in its options.
        error.message = error.message?.replace(/\?[^"\s]*/g, '')
        error.options?.headers?.delete?.('authorization')
        if (error.response) return { response: error.response, durationMs, cause: thrown }
      }
      let typed: TandemError
      // Thrown by the answer's capped read (limitBody), which ofetch runs outside its fetch: never wrapped.
      if (thrown instanceof ResponseTooLarge) {
        const { status, requestId, maxBytes } = thrown
        const message = `${whereOf(call)}: ${status} with an answer larger than maxResponseBytes (${maxBytes})`
        typed = new ApiError(message, { code: 'response_too_large', status, requestId })
      } else if (thrown instanceof HookFailure)
        typed = new TandemError(`${whereOf(call)}: a hook failed`, { code: 'hook_failed', cause: thrown.cause })
      else if (deadline.signal?.aborted) typed = abortError(deadline.signal)
      else if (guard.timedOut())
        typed = new TimeoutError(`${whereOf(call)} timed out`, { code: 'timeout', cause: thrown })
      else
        typed = new NetworkError(`${whereOf(call)}: network error (${call.service} unreachable)`, {
          code: 'network_error',
          cause: thrown,
        })
      return { error: typed, durationMs }
    } finally {
      inflight[service]--
      guard.dispose()
    }
  }

  /** Reports what an attempt ended with: a `request` event and a log line (path only, never the query). */
  function report(call: Call, outcome: Outcome): void {
    const { callId, service, method, path, attempt } = call
    const { durationMs } = outcome
    if (outcome.error) {
      if (emitter.has('request'))
        emitter.emit('request', { callId, service, method, path, attempt, durationMs, errorCode: outcome.error.code })
      return
    }
    const { status, headers } = outcome.response
    if (call.limiter) call.limiter.update(readRateLimit(headers), inflight[service])
    const level = status < 400 ? 'info' : 'warn'
    // Built only for a listener or a logger: this runs once per attempt.
    if (!emitter.has('request') && !log?.enabled(level)) return
    const requestId = headers.get('x-request-id') ?? undefined
    emitter.emit('request', { callId, service, method, path, attempt, status, durationMs, requestId })
    log?.(level, `${method} ${path} ${status} ${durationMs}ms`, { service, status, durationMs, requestId, attempt })
  }

  /** The wait before the next attempt; one that would outlast the call's deadline fails at once instead. */
  async function backoff(call: Call, step: RetryStep, durationMs: number, deadline: Deadline): Promise<void> {
    const { callId, service, method, path, attempt } = call
    const { delayMs, reason, status, requestId, error } = step
    if (delayMs >= deadline.remaining()) {
      if (error instanceof RateLimitError) throw error
      throw new TimeoutError(`${whereOf(call)}: the next attempt (in ${delayMs} ms) is past the call's deadline`, {
        code: 'timeout',
        status,
        requestId,
        cause: error,
        details: { waitMs: delayMs },
      })
    }
    emitter.emit('retry', { callId, service, method, path, attempt, delayMs, reason, durationMs, status, requestId })
    log?.('warn', `${method} ${path} retry in ${delayMs} ms (${reason})`, { service, attempt })
    // After a 429 the limiter is paused for this same wait: the retry waits in its queue, where
    // `rateLimit` events (and `useRateLimit`) show it, instead of in a sleep no one can see.
    if (!(status === 429 && call.limiter)) await sleep(delayMs, deadline.signal)
    call.attempt++
  }

  async function run(call: Call, deadline: Deadline): Promise<unknown> {
    for (;;) {
      const token = await admit(call, deadline)
      const outcome = await attempt(call, token, deadline)
      report(call, outcome)
      const step = classify(call, outcome)
      if (step.kind === 'done') return step.value
      if (step.kind === 'reauth') {
        // Refresh once (this drops the token only if it is still the one we used) and replay once.
        call.replayedAfter401 = true
        auth.invalidate(token)
      } else if (step.kind === 'retry') {
        await backoff(call, step, outcome.durationMs, deadline)
      } else {
        if (!outcome.response)
          log?.('error', `${call.method} ${call.path} ${step.error.code}`, { service: call.service })
        throw step.error
      }
    }
  }

  const context = { ...options, baseUrls, randomId, calls: 0 } // made once: prepare() runs per request
  return async function request<T>(req: RequestOptions): Promise<T> {
    const call = prepare(req, context)
    const deadline = createDeadline(call.signal, call.timeoutMs)
    try {
      return (await run(call, deadline)) as T
    } catch (error) {
      // The deadline, not the caller, cut it short (in the queue, waiting for a token, mid-attempt).
      if (deadline.expired() && !call.signal?.aborted && (isAbortError(error) || error instanceof TimeoutError)) {
        throw new TimeoutError(`${whereOf(call)} timed out after ${call.timeoutMs} ms`, {
          code: 'timeout',
          cause: error,
        })
      }
      throw error
    } finally {
      deadline.dispose()
    }
  }
}

type RetryStep = Extract<Step, { kind: 'retry' }>

/** A user hook's throw, told apart from the network's. */
class HookFailure extends Error {}

/** The user's hooks as ofetch's, each wrapped so that its throw is known for what it is. */
function toFetchHooks(hooks: ClientHooks | undefined): FetchHooks {
  const wrap = (hook: Hook<never>) => async (context: FetchContext) => {
    try {
      await hook(context as never)
    } catch (cause) {
      throw new HookFailure('hook failed', { cause })
    }
  }
  const out: Partial<Record<(typeof HOOK_NAMES)[number], unknown>> = {}
  for (const name of HOOK_NAMES) {
    const hook = hooks?.[name]
    if (hook) out[name] = Array.isArray(hook) ? hook.map(wrap) : wrap(hook)
  }
  return out as FetchHooks
}
