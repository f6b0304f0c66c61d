// The token provider a sharing tab's client runs on: the tab's own while it leads, else the
// leader's (asked over the channel), with the token this tab must not be given again.
import { DEV } from '@tandem/contract/dev'
import type { TokenProvider } from '@tandem/core'
import { rtError } from '../connection/protocol.js'
import type { TokenAsks } from './token.js'

export interface TabAuthOptions {
  own: TokenProvider
  asks: TokenAsks
  leading: () => boolean
  /** `stop()` was called: the client is told to close, instead of retrying. */
  stopped: () => boolean
}

export function createTabAuth({ own, asks, leading, stopped }: TabAuthOptions): TokenProvider {
  let last: string | undefined
  /** The token the leader must not answer with (refused, or the one a refresh replaces). */
  let stale: string | undefined
  const keep = (token: string) => {
    last = token
    if (token !== stale) stale = undefined
    return token
  }
  return {
    getToken: (o) =>
      stopped()
        ? Promise.reject(
            rtError(
              'tabs_stopped',
              DEV && process.env.NODE_ENV !== 'production'
                ? 'This tab left the shared connection (tabs.stop()): close this client'
                : 'tabs.stop()',
            ),
          )
        : leading()
          ? own.getToken(o)
          : asks.ask(o?.forceRefresh ? last : stale).then(keep),
    invalidate(token) {
      own.invalidate(token)
      if (token === undefined || token === last) stale = last
    },
    expiresAt: () => (leading() ? own.expiresAt() : undefined),
    on: own.on,
  }
}
