import { MEMBER_FIELDS, hasFields } from '@tandem/contract/frame-fields'
import type { Unsubscribe } from '@tandem/core'
import { createEmitter } from '../core.js'
import { internalsOf, type AttachedPresence, type ChannelHost } from '../channels/channel-internals.js'
import type { Channel, Member, Presence, PresenceEvent } from '../types.js'

const isMember = (m: unknown): m is Member => hasFields(m, MEMBER_FIELDS)

export interface PresenceImpl extends Presence, AttachedPresence {}

/**
 * A channel's presence (`@tandem/realtime/presence`, an entry of its own: an app that does not
 * use presence does not ship it). One per channel, made on first use and kept by the channel,
 * which hands it the presence events and, after a reconnect that did not keep it, the re-enter.
 *
 * @example
 * ```ts
 * const lobby = presence(rt.channel('chat:lobby'))
 * await lobby.enter({ name: 'Ada' })
 * const members = await lobby.get()
 * ```
 */
export function presence(channel: Channel): Presence {
  const internals = internalsOf(channel)
  return (internals.attached ??= createPresence(internals.host)) as PresenceImpl
}

function createPresence(host: ChannelHost): PresenceImpl {
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
    known: new Set(),
    event(frame) {
      if (isMember(frame.member)) emitter.emit('p', frame)
    },
  }
}
