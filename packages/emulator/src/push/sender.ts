// Sends pushes the way the standards say, through the field's library (`web-push`): the payload
// encrypted `aes128gcm` for the subscription's keys (RFC 8291), signed with this emulator's VAPID
// key (RFC 8292), with TTL and Urgency (RFC 8030). Nothing of the crypto is written here; the
// POST is ours (post.ts) so it has an overall deadline and a bounded read.
// Each endpoint gets its pushes in order; one slow endpoint holds up only its own, and at most
// QUEUE_LIMIT of them wait: past it a push fails at once.
import type { Agent } from 'node:https'
import { createRequire } from 'node:module'
import { PUSH, type PushPayload } from '@tandem/contract'
import { post, type Posting } from './post.js'

// web-push is CommonJS whose exports Node's ESM loader does not all see by name: required, typed.
const webPush = createRequire(import.meta.url)('web-push') as typeof import('web-push')

/** Pushes waiting behind one endpoint's current one, at most. */
export const QUEUE_LIMIT = 100

export type SendResult =
  | { status: 'sent'; httpStatus: number }
  | { status: 'gone'; httpStatus: number }
  | { status: 'failed'; httpStatus?: number; error: string }

/** Where a push goes and the keys it is encrypted for, as they were when it was queued. */
export interface PushTarget {
  endpoint: string
  keys: { p256dh: string; auth: string }
}

export interface PushSender {
  readonly publicKey: string
  /** Never rejects: the outcome says what happened. */
  send(target: PushTarget, payload: PushPayload): Promise<SendResult>
  /** Aborts what is in flight and drops what waits (reset, close): nothing more is POSTed for them. */
  reset(): void
}

/** The `sub` of every VAPID JWT: who a push service writes to about this sender. */
export const VAPID_SUBJECT = 'mailto:emulator@tandem.dev'

interface Queue {
  tail: Promise<unknown>
  /** Pushes queued and not yet started. */
  waiting: number
}

export function createPushSender(options: { agent: Agent | undefined; timeoutMs: number }): PushSender {
  // One key pair per emulator: what `GET /realtime/v1/push/key` publishes.
  const vapid = webPush.generateVAPIDKeys()
  const vapidDetails = { subject: VAPID_SUBJECT, publicKey: vapid.publicKey, privateKey: vapid.privateKey }
  /** By endpoint: its last push, settled or not (the next waits for it). */
  let queues = new Map<string, Queue>()
  const inFlight = new Set<Posting>()
  /** Bumped by reset(): a push queued before it is never POSTed. */
  let generation = 0

  const attempt = async (target: PushTarget, payload: PushPayload, at: number): Promise<SendResult> => {
    if (at !== generation) return { status: 'failed', error: 'the sender was reset' }
    let details
    try {
      details = webPush.generateRequestDetails(target, JSON.stringify(payload), {
        TTL: PUSH.ttlSeconds,
        urgency: PUSH.urgency,
        vapidDetails,
        contentEncoding: 'aes128gcm',
      })
    } catch (err) {
      return { status: 'failed', error: err instanceof Error ? err.message : String(err) }
    }
    const posting = post(details, options)
    inFlight.add(posting)
    const answer = await posting.done
    inFlight.delete(posting)
    if ('error' in answer) return { status: 'failed', error: answer.error }
    const { httpStatus } = answer
    if (httpStatus >= 200 && httpStatus < 300) return { status: 'sent', httpStatus }
    // RFC 8030 §7.3: 404 and 410 mean the subscription is no more; a push service requires it be dropped.
    if (httpStatus === 404 || httpStatus === 410) return { status: 'gone', httpStatus }
    return { status: 'failed', httpStatus, error: `HTTP ${httpStatus}` }
  }

  return {
    publicKey: vapid.publicKey,
    send(target, payload) {
      const snapshot: PushTarget = { endpoint: target.endpoint, keys: { ...target.keys } }
      const endpoint = snapshot.endpoint
      const at = generation
      const mine = queues
      const queue = mine.get(endpoint) ?? { tail: Promise.resolve(), waiting: 0 }
      if (queue.waiting >= QUEUE_LIMIT)
        return Promise.resolve({ status: 'failed', error: `${QUEUE_LIMIT} pushes already wait for this endpoint` })
      queue.waiting++
      const result = queue.tail.then(() => {
        queue.waiting--
        return attempt(snapshot, payload, at)
      })
      queue.tail = result
      mine.set(endpoint, queue)
      void result.then(() => {
        if (queue.tail === result) mine.delete(endpoint)
      })
      return result
    },
    reset() {
      generation++
      queues = new Map()
      for (const posting of inFlight) posting.abort('the sender was reset')
      inFlight.clear()
    },
  }
}
