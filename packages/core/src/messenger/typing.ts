import { CUSTOMER_TYPING_RENEW_MS } from '@tandem/contract'
import { asTandemError } from '../as-tandem-error.js'
import { validateId } from '../collection.js'
import type { TandemError } from '../errors.js'
import type { Http } from '../http.js'

// The customer's typing (`conversations.typing(id, on)`): at most one `setMyTyping` per
// conversation per CUSTOMER_TYPING_RENEW_MS, whatever the keystrokes say (true/false flapping
// included): the first change goes at once, and when the window ends the last state asked for goes
// if it differs from the one sent (a stop is never lost); a true still going is renewed by the next
// call after the window (the service lapses it CUSTOMER_TYPING_TTL_MS after the last). Never stored
// by a durable outbox (a signal means nothing later) and never retried. Nothing is thrown: errors
// are reported.

export interface TypingSender {
  typing: (id: string, typing: boolean) => void
  /** Forgets every conversation's state (shutdown). */
  clear: () => void
}

/** One conversation's typing: what was sent and when, what is asked for now, the window's timer. */
interface Lane {
  sent: boolean
  want: boolean
  timer: ReturnType<typeof setTimeout> | undefined
}

export function createTypingSender(
  http: Http,
  { report, alive }: { report: (e: TandemError) => void; alive: () => void },
): TypingSender {
  /** The conversations typed in now (ids are the service's: a Map). */
  const lanes = new Map<string, Lane>()

  function send(id: string, lane: Lane, typing: boolean) {
    lane.sent = typing
    lane.timer = setTimeout(() => windowEnd(id), CUSTOMER_TYPING_RENEW_MS)
    const path = `/v1/me/conversations/${validateId(id)}/typing`
    void http({ service: 'support', method: 'POST', path, body: { typing }, durable: false, retry: false }).catch(
      (thrown: unknown) => report(asTandemError(thrown, 'typing_failed', 'Typing was not sent')),
    )
  }

  function windowEnd(id: string) {
    const lane = lanes.get(id)
    if (!lane) return
    lane.timer = undefined
    if (lane.want !== lane.sent) send(id, lane, lane.want)
    else if (!lane.sent) lanes.delete(id) // stopped: nothing more to say
  }

  return {
    typing(id, typing) {
      try {
        alive()
        const lane = lanes.get(id)
        if (!lane) {
          validateId(id)
          if (!typing) return // never said it was typing
          const fresh: Lane = { sent: false, want: true, timer: undefined }
          lanes.set(id, fresh)
          return send(id, fresh, true)
        }
        lane.want = typing === true
        // Within the window: its end sends the last state asked for. After it: a change, or a renewal.
        if (lane.timer === undefined) send(id, lane, lane.want)
      } catch (thrown) {
        report(asTandemError(thrown, 'typing_failed', 'Typing was not sent'))
      }
    },
    clear() {
      for (const lane of lanes.values()) clearTimeout(lane.timer)
      lanes.clear()
    },
  }
}
