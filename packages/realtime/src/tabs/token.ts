// Tokens for a follower tab: it asks the leading tab, whose token provider fetches and caches for
// all. `stale` names a token the asker must not get back (refused by the service, or the one a
// refresh replaces): the leader then forces a fetch, once for all tabs.
import type { TokenProvider } from '@tandem/core'
import { isTokenRefusal } from '../core.js'
import { rtError } from '../connection/protocol.js'
import { TABS_DEFAULTS } from './defaults.js'
import type { TabMessage, TabMessageOf } from './wire.js'

const TOKEN_WAIT_MS = TABS_DEFAULTS.tokenWaitMs

type Answer = TabMessageOf<'tokened'>

export interface TokenAsks {
  ask(stale: string | undefined): Promise<string>
  /** A (new) leader: ask it again what is not answered yet (`via`: this tab leads now). */
  resend(via?: (ask: string, stale: string | undefined) => void): void
  answer: (m: Answer) => void
}

export function createTokenAsks(post: (m: TabMessage) => void, random: () => string): TokenAsks {
  const waiting = new Map<string, { stale?: string | undefined; done: (m?: Answer) => void }>()
  return {
    ask(stale) {
      return new Promise((resolve, reject) => {
        const ask = random()
        const timer = setTimeout(() => entry.done(), TOKEN_WAIT_MS)
        const entry = {
          stale,
          done(m?: Answer) {
            clearTimeout(timer)
            waiting.delete(ask)
            if (typeof m?.token === 'string') return resolve(m.token)
            // No answer is temporary (the connection retries); the leader's own failure keeps its
            // code, and is final only if it is a refusal (as it is for the leader).
            reject(
              m
                ? rtError(
                    m.error ?? 'token_unavailable',
                    m.message ?? 'The leading tab could not get a token',
                    !isTokenRefusal({ code: m.error }),
                  )
                : rtError('token_endpoint_unavailable', `No tab answered for a token within ${TOKEN_WAIT_MS} ms`, true),
            )
          },
        }
        waiting.set(ask, entry)
        post({ type: 'token', ask, stale })
      })
    },
    resend(via = (ask, stale) => post({ type: 'token', ask, stale })) {
      for (const [ask, { stale }] of waiting) via(ask, stale)
    },
    answer(m) {
      waiting.get(m.ask)?.done(m)
    },
  }
}

/** The leader's answer to `ask`: its provider's token, or a fresh one when the asker's is `stale`. */
export const serveToken = (auth: TokenProvider, ask: string, stale: string | undefined): Promise<Answer> =>
  auth
    .getToken()
    .then((token) => (token === stale ? auth.getToken({ forceRefresh: true }) : token))
    .then(
      (token) => ({ type: 'tokened', ask, token }),
      // The provider's own error (an AuthError's code and message): the asking tab rejects with it.
      (e: { code?: string; message?: string }) => ({ type: 'tokened', ask, error: e.code, message: e.message }),
    )
