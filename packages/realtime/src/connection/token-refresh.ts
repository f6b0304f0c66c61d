import type { RealtimeError, TokenProvider } from '@tandem/core'
import type { Backoff } from '../core.js'
import { MAX_TIMER_MS, clampDelay } from '../core.js'
import { REFRESH_RETRY_MS } from '../defaults.js'
import { REFRESH_MARGIN_MS, REFRESH_MARGIN_RATIO } from './refresh-margin.js'
import { asError, toError, type Reply } from './protocol.js'

export interface TokenRefreshOptions {
  auth: TokenProvider
  /** The token the connection runs on. */
  current(): string | undefined
  /** Sends `{ type: 'auth', token }`; false when not connected. */
  send: (token: string, onReply: (reply: Reply) => void) => boolean
  error(error: RealtimeError): void
  /** Paces refreshes that come too soon (a server saying `expiresIn: 0`): its own instance. */
  backoff: Backoff
}

export interface TokenRefresh {
  /** The connection's token expires in `expiresIn` seconds (the server's count). */
  schedule(expiresIn: number): void
  stop(): void
}

/** When to refresh a token that expires in `lifetimeMs`: core's margin rule, max(30 s, 10 %), at most half. */
export function refreshDelay(lifetimeMs: number): number {
  const margin = Math.min(Math.max(REFRESH_MARGIN_MS, lifetimeMs * REFRESH_MARGIN_RATIO), lifetimeMs / 2)
  return Math.max(0, lifetimeMs - margin)
}

/** Re-authenticates on the open connection before the token expires, so no channel is dropped. */
export function createTokenRefresh(o: TokenRefreshOptions): TokenRefresh {
  let timer: ReturnType<typeof setTimeout> | undefined
  let run = 0

  const later = (ms: number) => {
    clearTimeout(timer)
    const mine = ++run
    timer = setTimeout(() => void refresh(mine), Math.min(ms, MAX_TIMER_MS))
  }
  const retry = () => later(REFRESH_RETRY_MS)

  async function refresh(mine: number) {
    try {
      let token = await o.auth.getToken()
      // Core hands out its cached token until its own refresh point; we need a new one now.
      if (token === o.current()) token = await o.auth.getToken({ forceRefresh: true })
      if (mine !== run) return
      const sent = o.send(token, (reply) => {
        if (mine !== run) return
        if (reply.type === 'authed') return schedule(reply.expiresIn)
        o.error(toError(reply.type === 'error' ? reply.error : undefined))
        retry()
      })
      if (!sent) retry()
    } catch (cause) {
      if (mine !== run) return
      o.error(asError(cause, 'token_refresh_failed', true))
      retry()
    }
  }

  function schedule(expiresIn: number) {
    const now = Date.now()
    // The provider's expiry is by our own clock; the server's by its clock. The earlier wins.
    // A lifetime that is no number at all (Infinity, NaN, negative) counts as none: refresh soon.
    const lifetime = clampDelay(expiresIn * 1000, 0, MAX_TIMER_MS) ?? 0
    const wanted = refreshDelay(Math.min(now + lifetime, o.auth.expiresAt() ?? Infinity) - now)
    // A healthy lifetime starts the pacing over; a short one (a slow backend clock, a hostile
    // server) waits at least the backoff's next delay, so refreshes cannot spin.
    if (wanted >= o.backoff.options.stableMs) {
      o.backoff.reset()
      return later(wanted)
    }
    later(Math.max(wanted, o.backoff.next()))
  }

  return {
    schedule,
    stop() {
      clearTimeout(timer)
      run++
    },
  }
}
