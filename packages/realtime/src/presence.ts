import { createEmitter } from '@tandem/core'
import type { Unsubscribe } from '@tandem/core'
import { matches, type Frame } from './protocol.js'
import type { Member, Presence, PresenceEvent } from './types.js'

export interface PresenceHost {
  name: string
  /** Keeps the channel subscribed (presence needs it, and presence events come through it). */
  lease(): Unsubscribe
  /** Presence requests wait until the channel is subscribed on this connection (when it is wanted at all). */
  ready(): boolean
  request(frame: Frame, timeoutMs?: number, ready?: () => boolean): Promise<Frame>
}

export interface PresenceImpl extends Presence {
  /** What this client entered with, to re-enter after a reconnect that did not keep it. */
  readonly entered: { data: unknown } | undefined
  reenter(): Promise<void> | undefined
  event(frame: Frame): void
}

export function createPresence(host: PresenceHost): PresenceImpl {
  const emitter = createEmitter<{ p: (e: PresenceEvent) => void }>()
  let entered: { data: unknown } | undefined
  // The service has acknowledged our enter at least once: only then is re-entering after a reconnect ours to do
  // (an enter still queued goes out by itself).
  let acked = false
  let release: Unsubscribe | undefined
  const send = (type: string, data?: unknown): Promise<void> =>
    host.request({ type, channel: host.name, ...(data === undefined ? {} : { data }) }, undefined, host.ready).then(() => {
      acked = entered !== undefined
    })

  return {
    get entered() {
      return entered
    },
    enter(data) {
      entered = { data: data ?? null }
      release ??= host.lease()
      return send('presence.enter', entered.data)
    },
    update(data) {
      entered = { data: data ?? null }
      release ??= host.lease()
      return send('presence.update', entered.data)
    },
    leave() {
      entered = undefined
      acked = false
      const done = release
      release = undefined
      // The channel is released after the leave went out, so the unsubscribe cannot overtake it.
      return send('presence.leave').finally(() => done?.())
    },
    async get(options = {}) {
      const reply = await host.request({ type: 'presence.get', channel: host.name }, options.timeoutMs, host.ready)
      return (reply.members as unknown[]).filter((m): m is Member => matches(m, 'clientId:s connectionId:s'))
    },
    subscribe(listener) {
      const off = emitter.on('p', listener)
      const done = host.lease()
      return () => {
        off()
        done()
      }
    },
    reenter: () => (entered && acked ? send('presence.enter', entered.data) : undefined),
    event(frame) {
      if (matches(frame.member, 'clientId:s connectionId:s')) emitter.emit('p', frame as unknown as PresenceEvent)
    },
  }
}
