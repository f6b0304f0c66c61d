// A customer's channel hears at most one `typing` per conversation per CUSTOMER_TYPING_INTERVAL_MS:
// the first change goes at once; changes within the interval wait, and the latest is sent when the
// interval ends if it differs from what was sent (so a stop is never lost). A conversation has
// state only while an interval runs, so what is kept is bounded by what changed in the last second.
import { CUSTOMER_TYPING_INTERVAL_MS, type CustomerTyping } from '@tandem/contract'

export interface TypingThrottle {
  say(app: string, data: CustomerTyping): void
  /** Forgets everything waiting (emulator reset and close). */
  reset(): void
}

interface Slot {
  sent: CustomerTyping
  latest: CustomerTyping
  timer: NodeJS.Timeout
}

const same = (a: CustomerTyping, b: CustomerTyping) => a.typing === b.typing && a.name === b.name

export function createTypingThrottle(
  send: (app: string, data: CustomerTyping) => void,
  intervalMs = CUSTOMER_TYPING_INTERVAL_MS,
): TypingThrottle {
  /** By app and conversation: what was sent last and what is latest, while its interval runs. */
  const slots = new Map<string, Slot>()

  const open = (key: string, app: string, data: CustomerTyping) => {
    send(app, data)
    const timer = setTimeout(() => end(key, app), intervalMs)
    timer.unref() // a pending stop never holds the process open
    slots.set(key, { sent: data, latest: data, timer })
  }
  const end = (key: string, app: string) => {
    const slot = slots.get(key)
    if (!slot) return
    slots.delete(key)
    if (!same(slot.latest, slot.sent)) open(key, app, slot.latest)
  }

  return {
    say(app, data) {
      const key = `${app}\u0000${data.conversationId}`
      const slot = slots.get(key)
      if (slot) slot.latest = data
      else open(key, app, data)
    },
    reset() {
      for (const slot of slots.values()) clearTimeout(slot.timer)
      slots.clear()
    },
  }
}
