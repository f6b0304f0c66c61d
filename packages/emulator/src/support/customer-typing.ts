// A customer's typing, shown to agents (POST /support/v1/me/conversations/{id}/typing): the
// service holds one member per typing customer on the resource-presence channel (clientId
// `customer:<id>`, data ResourcePresenceData with `typing` = the conversations they type in),
// which leaves when they stop. `typing: true` lasts CUSTOMER_TYPING_TTL_MS unless said again; the
// member changes at most once per conversation per CUSTOMER_TYPING_INTERVAL_MS (typing-throttle.ts).
import {
  CUSTOMER_TYPING_TTL_MS,
  LIMITS,
  MAX_PRESENCE_RESOURCES,
  customerPresenceClientId,
  showableName,
  type CustomerTyping as TypingChange,
  type ResourcePresenceData,
} from '@tandem/contract'
import { createTypingThrottle } from './typing-throttle.js'

export interface CustomerTypingOptions {
  /** How long a `typing: true` lasts unless renewed (tests shorten it). */
  ttlMs?: number
  intervalMs?: number
}

export interface CustomerTyping {
  set(app: string, customerId: string, name: string | null, conversationId: string, typing: boolean): void
  reset(): void
}

/** `show`: the member's data on the presence channel, or null to make it leave. */
export function createCustomerTyping(
  show: (app: string, clientId: string, data: ResourcePresenceData | null) => void,
  { ttlMs = CUSTOMER_TYPING_TTL_MS, intervalMs }: CustomerTypingOptions = {},
): CustomerTyping {
  if (!(Number.isInteger(ttlMs) && ttlMs > 0 && ttlMs <= 2 ** 31 - 1))
    throw new RangeError('support.customerTypingTtlMs must be a whole number of ms from 1 to 2^31-1')
  /** By app and conversation: whose it is and when its `typing: true` lapses, while the customer types. */
  const lapses = new Map<string, { customerId: string; name: string | null; timer: NodeJS.Timeout }>()
  /** By app and conversation: the customer it belongs to, while the member shows it. */
  const owners = new Map<string, string>()
  /** By app and customer: the conversations the member shows. */
  const shown = new Map<string, Set<string>>()

  /** A conversation no longer shown: a later `typing: true` there starts it again. */
  const forget = (convKey: string) => {
    const lapse = lapses.get(convKey)
    if (lapse) clearTimeout(lapse.timer)
    lapses.delete(convKey)
    owners.delete(convKey)
  }

  const apply = (app: string, change: TypingChange) => {
    const convKey = `${app}\u0000${change.conversationId}`
    const customerId = lapses.get(convKey)?.customerId ?? owners.get(convKey)
    if (customerId === undefined) return
    const key = `${app}\u0000${customerId}`
    const typing = shown.get(key) ?? new Set<string>()
    const had = typing.has(change.conversationId)
    if (had === change.typing) {
      if (!change.typing) owners.delete(convKey)
      return
    }
    if (change.typing) {
      // A member's lists hold at most MAX_PRESENCE_RESOURCES: the conversation typed in longest ago goes.
      for (const oldest of typing) {
        if (typing.size < MAX_PRESENCE_RESOURCES) break
        typing.delete(oldest)
        forget(`${app}\u0000${oldest}`)
      }
      typing.add(change.conversationId)
      owners.set(convKey, customerId)
    } else {
      typing.delete(change.conversationId)
      owners.delete(convKey)
    }
    if (typing.size) shown.set(key, typing)
    else shown.delete(key)
    const data = typing.size ? { name: change.name, viewing: [], typing: [...typing], locks: [] } : null
    show(app, customerPresenceClientId(customerId), data)
  }
  const throttle = createTypingThrottle(apply, intervalMs)

  const stop = (app: string, conversationId: string) => {
    const key = `${app}\u0000${conversationId}`
    const lapse = lapses.get(key)
    if (!lapse) return
    clearTimeout(lapse.timer)
    // `owners` keeps the customer for the (maybe throttled) stop still to come.
    owners.set(key, lapse.customerId)
    lapses.delete(key)
    throttle.say(app, { conversationId, typing: false, name: lapse.name })
  }

  return {
    set(app, customerId, name, conversationId, typing) {
      if (!typing) return stop(app, conversationId)
      const key = `${app}\u0000${conversationId}`
      const shownName = name === null ? '' : showableName(name).slice(0, LIMITS.personName)
      const had = lapses.get(key)
      if (had) clearTimeout(had.timer)
      const timer = setTimeout(() => stop(app, conversationId), ttlMs)
      timer.unref()
      lapses.set(key, { customerId, name: shownName || null, timer })
      // A renewal changes nothing anyone sees: only a start is said.
      if (!had) throttle.say(app, { conversationId, typing: true, name: shownName || null })
    },
    reset() {
      for (const lapse of lapses.values()) clearTimeout(lapse.timer)
      lapses.clear()
      owners.clear()
      shown.clear()
      throttle.reset()
    },
  }
}
