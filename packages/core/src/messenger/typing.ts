import { CUSTOMER_TYPING_RENEW_MS } from '@tandem/contract'
import { asTandemError } from '../as-tandem-error.js'
import { validateId } from '../collection.js'
import type { TandemError } from '../errors.js'
import type { Http } from '../http.js'

// The customer's typing (`conversations.typing(id, on)`): `setMyTyping` at most every
// CUSTOMER_TYPING_RENEW_MS while it goes on (the service lapses it CUSTOMER_TYPING_TTL_MS after the
// last), `false` at once when it stops. Never stored by a durable outbox (a signal means nothing
// later) and never retried (the next keystroke says it again). Nothing is thrown: errors are reported.

export interface TypingSender {
  typing: (id: string, typing: boolean) => void
  /** Forgets every conversation's state (shutdown). */
  clear: () => void
}

export function createTypingSender(
  http: Http,
  {
    report,
    alive,
    now = () => Date.now(),
  }: { report: (e: TandemError) => void; alive: () => void; now?: () => number },
): TypingSender {
  /** When `true` was last sent, per conversation typed in now (ids are the service's: a Map). */
  const sentAt = new Map<string, number>()

  function send(id: string, typing: boolean) {
    const path = `/v1/me/conversations/${validateId(id)}/typing`
    void http({ service: 'support', method: 'POST', path, body: { typing }, durable: false, retry: false }).catch(
      (thrown: unknown) => report(asTandemError(thrown, 'typing_failed', 'Typing was not sent')),
    )
  }

  return {
    typing(id, typing) {
      try {
        alive()
        const last = sentAt.get(id)
        if (typing === true) {
          const t = now()
          if (last !== undefined && t - last < CUSTOMER_TYPING_RENEW_MS) return
          send(id, true)
          sentAt.set(id, t)
        } else if (last !== undefined) {
          sentAt.delete(id)
          send(id, false)
        }
      } catch (thrown) {
        report(asTandemError(thrown, 'typing_failed', 'Typing was not sent'))
      }
    },
    clear: () => sentAt.clear(),
  }
}
