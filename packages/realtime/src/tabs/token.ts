// Tokens for a follower tab: it asks the leading tab, whose token provider fetches and caches for
// all. `stale` names a token the asker must not get back (refused by the service, or the one a
// refresh replaces): the leader then forces a fetch, once for all tabs.
import type { TokenProvider } from '@tandem/core'
import { rtError } from '../protocol.js'
import { TABS_DEFAULTS, type TabMessage } from './wire.js'

const TOKEN_WAIT_MS = TABS_DEFAULTS.tokenWaitMs

export interface TokenAsks {
  ask(stale: string | undefined): Promise<string>
  /** A (new) leader: ask it again what is not answered yet (`via`: this tab leads now). */
  resend(via?: (q: string, stale: string | undefined) => void): void
  answer(m: Extract<TabMessage, { k: 'tokened' }>): void
}

export function createTokenAsks(post: (m: TabMessage) => void, random: () => string): TokenAsks {
  const waiting = new Map<
    string,
    { stale?: string | undefined; done: (m?: { token?: string; code?: string; message?: string }) => void }
  >()
  return {
    ask(stale) {
      return new Promise((resolve, reject) => {
        const q = random()
        const timer = setTimeout(() => entry.done(), TOKEN_WAIT_MS)
        const entry = {
          stale,
          done(m?: { token?: string; code?: string; message?: string }) {
            clearTimeout(timer)
            waiting.delete(q)
            if (typeof m?.token === 'string') return resolve(m.token)
            // No answer is temporary (the connection retries); the leader's own failure keeps its code.
            reject(
              m
                ? rtError(m.code ?? 'token_unavailable', m.message ?? 'The leading tab could not get a token')
                : rtError('token_endpoint_unavailable', `No tab answered for a token within ${TOKEN_WAIT_MS} ms`, true),
            )
          },
        }
        waiting.set(q, entry)
        post({ k: 'token', q, stale })
      })
    },
    resend(via = (q, stale) => post({ k: 'token', q, stale })) {
      for (const [q, { stale }] of waiting) via(q, stale)
    },
    answer(m) {
      waiting.get(m.q)?.done(m)
    },
  }
}

/** The leader's side: its provider's token, or a fresh one when the asker's is `stale`. */
export async function serveToken(auth: TokenProvider, stale: string | undefined): Promise<string> {
  const token = await auth.getToken()
  return token === stale ? auth.getToken({ forceRefresh: true }) : token
}
