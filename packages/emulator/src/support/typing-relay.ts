// Agents say which conversations they type in through resource presence (one member per agent
// socket on `support:conversations:presence`, data `ResourcePresenceData`); the service tells the
// customer through their channel (`typing`), with the agent's verified name (presence-policy.ts),
// at most once per conversation per second (typing-throttle.ts). Registered on the hub's events by
// the support module, so realtime code knows nothing of support.
import { CUSTOMER_PRESENCE_PREFIX, type CustomerTyping } from '@tandem/contract'
import type { RealtimeEvent } from '../realtime/types.js'
import { PRESENCE_CHANNEL } from './presence-policy.js'

interface Typist {
  name: string | null
  typing: Set<string>
}

/** The ids a member types in: its data matched ResourcePresenceData (the hub checked it), anything else reads as none. */
function typingOf(data: unknown): Set<string> {
  const typing = typeof data === 'object' && data !== null ? (data as { typing?: unknown }).typing : undefined
  return new Set(Array.isArray(typing) ? typing.filter((id): id is string => typeof id === 'string') : [])
}

export interface TypingRelay {
  listener(event: RealtimeEvent): void
  reset(): void
}

/** `nameOf`: the member's verified name (the policy's); `say`: the customer channel's (throttled) `typing`. */
export function createTypingRelay(
  nameOf: (app: string, connectionId: string) => string | null | undefined,
  say: (app: string, data: CustomerTyping) => void,
): TypingRelay {
  /** By app and connection: what each member said last, to see what changed. */
  const typists = new Map<string, Typist>()
  /**
   * By app and conversation: who types in it now (member key → verified name). A customer hears
   * "typing" while anyone does, and "stopped" only when the last one stops, not when one of two does.
   */
  const typers = new Map<string, Map<string, string | null>>()
  const tell = (app: string, id: string, member: string, typist: Typist, typing: boolean) => {
    const key = `${app}\u0000${id}`
    const now = typers.get(key) ?? new Map<string, string | null>()
    const was = now.size
    if (typing) now.set(member, typist.name)
    else now.delete(member)
    if (now.size) typers.set(key, now)
    else typers.delete(key)
    if (!typing && was === now.size) return
    // The newest typist's name while someone types; the one who stopped last when nobody does.
    const name = typing || !now.size ? typist.name : ([...now.values()].at(-1) ?? null)
    say(app, { conversationId: id, typing: now.size > 0, name })
  }
  return {
    listener(event) {
      if (event.type !== 'presence' || event.channel !== PRESENCE_CHANNEL) return
      const { app, member, action } = event
      // The service's own members (typing customers) are for agents: never relayed back to a customer.
      if (member.clientId.startsWith(CUSTOMER_PRESENCE_PREFIX)) return
      const key = `${app}\u0000${member.connectionId}`
      const before = typists.get(key) ?? { name: null, typing: new Set<string>() }
      const after: Typist =
        action === 'leave'
          ? { name: before.name, typing: new Set<string>() }
          : { name: nameOf(app, member.connectionId) ?? null, typing: typingOf(member.data) }
      if (action === 'leave') typists.delete(key)
      else typists.set(key, after)
      for (const id of after.typing) if (!before.typing.has(id)) tell(app, id, key, after, true)
      for (const id of before.typing) if (!after.typing.has(id)) tell(app, id, key, after, false)
    },
    reset: () => {
      typists.clear()
      typers.clear()
    },
  }
}
