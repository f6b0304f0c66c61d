// Agents say which conversations they type in through resource presence (one member per agent
// socket on `support:conversations:presence`, data `ResourcePresenceData`); the service tells the
// customer through their channel (`typing`). Registered on the hub's events by the support module,
// so realtime code knows nothing of support.
import { MAX_PRESENCE_RESOURCES, resourcePresenceChannel } from '@tandem/contract'
import type { RealtimeEvent } from '../realtime/types.js'
import type { CustomerFeed } from './customer-feed.js'

const CHANNEL = resourcePresenceChannel('support/conversations')

interface Typist {
  name: string | null
  typing: Set<string>
}

/** What a member's data says; anything malformed reads as "not typing" (the data is the client's). */
function read(data: unknown): Typist {
  const d = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {}
  const ids = Array.isArray(d.typing) ? d.typing.filter((id): id is string => typeof id === 'string') : []
  return { name: typeof d.name === 'string' ? d.name : null, typing: new Set(ids.slice(0, MAX_PRESENCE_RESOURCES)) }
}

export interface TypingRelay {
  listener(event: RealtimeEvent): void
  reset(): void
}

export function createTypingRelay(feed: CustomerFeed): TypingRelay {
  /** By app and connection: what each member said last, to see what changed. */
  const typists = new Map<string, Typist>()
  return {
    listener(event) {
      if (event.type !== 'presence' || event.channel !== CHANNEL) return
      const key = `${event.app}\u0000${event.member.connectionId}`
      const before = typists.get(key) ?? { name: null, typing: new Set<string>() }
      const after =
        event.action === 'leave' ? { name: before.name, typing: new Set<string>() } : read(event.member.data)
      if (event.action === 'leave') typists.delete(key)
      else typists.set(key, after)
      for (const id of after.typing)
        if (!before.typing.has(id)) feed.typing(event.app, { conversationId: id, typing: true, name: after.name })
      for (const id of before.typing)
        if (!after.typing.has(id)) feed.typing(event.app, { conversationId: id, typing: false, name: after.name })
    },
    reset: () => typists.clear(),
  }
}
