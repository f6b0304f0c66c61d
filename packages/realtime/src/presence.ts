import { MEMBER_FIELDS, hasFields } from '@tandem/contract/frame-fields'
import type { Unsubscribe } from '@tandem/core'
import { createEmitter } from './core.js'
import type { FrameOf } from './protocol.js'
import type { Hub } from './channel-hub.js'
import type { Member, Presence, PresenceEvent } from './types.js'

const isMember = (m: unknown): m is Member => hasFields(m, MEMBER_FIELDS)

export interface PresenceHost {
  name: string
  /** Keeps the channel subscribed (presence needs it, and presence events come through it). */
  lease: () => Unsubscribe
  /** Presence requests wait until the channel is subscribed on this connection (when it is wanted at all). */
  ready: () => boolean
  request: Hub['request']
}

export interface PresenceImpl extends Presence {
  /** What this client entered with, to re-enter after a reconnect that did not keep it. */
  readonly entered: { data: unknown } | undefined
  reenter: () => Promise<void> | undefined
  event: (frame: FrameOf<'presence.event'>) => void
}

export function createPresence(host: PresenceHost): PresenceImpl {
  const emitter = createEmitter<{ p: (e: PresenceEvent) => void }>()
  let entered: { data: unknown } | undefined
  // The service has acknowledged our enter at least once: only then is re-entering after a reconnect ours to do
  // (an enter still queued goes out by itself).
  let acked = false
  let release: Unsubscribe | undefined
  // Without data (a leave), JSON leaves the field out.
  const send = (type: 'presence.enter' | 'presence.update' | 'presence.leave', data?: unknown): Promise<void> =>
    host.request({ type, channel: host.name, data }, undefined, host.ready).then(() => {
      acked = entered !== undefined
    })
  /** enter and update: what we are present with; the channel stays subscribed while we are. */
  const set = (type: 'presence.enter' | 'presence.update') => (data?: unknown) => {
    entered = { data: data ?? null }
    release ??= host.lease()
    return send(type, entered.data)
  }

  return {
    get entered() {
      return entered
    },
    enter: set('presence.enter'),
    update: set('presence.update'),
    leave() {
      entered = undefined
      acked = false
      const done = release
      release = undefined
      // The channel is released after the leave went out, so the unsubscribe cannot overtake it.
      return send('presence.leave').finally(() => done?.())
    },
    async get(options = {}) {
      const reply = await host.request({ type: 'presence.get', channel: host.name }, options, host.ready)
      return reply.members.filter(isMember)
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
      if (isMember(frame.member)) emitter.emit('p', frame)
    },
  }
}
