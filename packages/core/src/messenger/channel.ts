import { CUSTOMER_ID_RULE, customerChannelName, isCustomerId } from '@tandem/contract'
import { DEV } from '@tandem/contract/dev'
import type { LiveMessage, LiveSource } from '../cache/live.js'
import { LEASE_RELEASE_MS } from '../defaults.js'
import { ApiError, RealtimeError, isTandemError, type TandemError } from '../errors.js'
import { createPool } from '../pool.js'
import type { Unsubscribe } from '../types.js'

// The customer's own channel (`support:customer:<id>`), held while anything listens: a store
// with listeners, or an `on()` listener. The id is the token's subject, as `me()` says it.

export interface CustomerChannelOptions {
  customerId: () => Promise<string>
  onMessage: (message: LiveMessage) => void
  /** What was shown may have missed pushes: the first subscription after a load, or a `discontinuity`. */
  onResync: () => void
  onError: (error: TandemError) => void
}

export interface CustomerChannel {
  /** Holds the channel until the returned function is called (let go a lease delay later). */
  hold: () => Unsubscribe
  /** Lets the channel go now, for good: later holds hold nothing. */
  close: () => void
}

const none: Unsubscribe = () => {}

export function createCustomerChannel(rt: LiveSource | undefined, o: CustomerChannelOptions): CustomerChannel {
  const pool = createPool(LEASE_RELEASE_MS)
  let current: Unsubscribe | undefined
  let closed = false

  const open = (): Unsubscribe => {
    let offs: Unsubscribe[] | undefined
    let done = false
    o.customerId().then(
      (id) => {
        if (done || !rt) return
        const name = customerChannelName(id)
        const channel = rt.channel(name)
        // Pushes sent before the subscription reached nobody: what loaded before it is fetched again, once.
        let synced = channel.state === 'subscribed'
        offs = [
          channel.on('state', ({ current, error }) => {
            if (current === 'failed') o.onError(isTandemError(error) ? error : realtimeFailure(name))
            if (current !== 'subscribed' || synced) return
            synced = true
            o.onResync()
          }),
          channel.on('discontinuity', () => o.onResync()),
          channel.subscribe(o.onMessage),
        ]
      },
      (error: TandemError) => {
        if (!done) o.onError(error)
      },
    )
    const stop = () => {
      if (done) return
      done = true
      offs?.forEach((off) => off())
    }
    return (current = stop)
  }

  return {
    hold: () => (rt && !closed ? pool.acquire('channel', open) : none),
    close() {
      closed = true
      current?.()
    },
  }
}

const realtimeFailure = (name: string) =>
  new RealtimeError(DEV && process.env.NODE_ENV !== 'production' ? `Channel ${name} failed` : name, { code: 'failed' })

/** The customer id of a `me()` answer, or an `ApiError` when the answer has none a channel name can carry. */
export function customerIdOf(profile: { id?: unknown } | null | undefined): string {
  const id = profile?.id
  if (isCustomerId(id)) return id
  throw new ApiError(
    DEV && process.env.NODE_ENV !== 'production' ? `GET /v1/me: the customer id ${CUSTOMER_ID_RULE}` : 'GET /v1/me',
    {
      code: 'bad_response',
      status: 200,
    },
  )
}
