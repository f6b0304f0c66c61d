// The customer's typing, told to the agents from the composer (`conversations.typing(id, …)`,
// which renews it at the contract's pace and never throws): on while there is text and keys
// are pressed, off when the box empties, the message is sent, focus leaves, the view goes, or
// after IDLE_MS without a key.

/** Typing stops being said this long after the last key (the service would lapse it later). */
export const IDLE_MS = 3_000

export interface CustomerTyping {
  /** The box's text changed (a key, a paste, a cut). */
  input(text: string): void
  /** Sent, blurred, or the view closed. */
  stop(): void
}

export function createCustomerTyping(say: (typing: boolean) => void): CustomerTyping {
  let on = false
  let idle: ReturnType<typeof setTimeout> | undefined

  const stop = () => {
    clearTimeout(idle)
    idle = undefined
    if (!on) return
    on = false
    say(false)
  }

  return {
    input(text) {
      if (text.trim() === '') return stop()
      clearTimeout(idle)
      idle = setTimeout(stop, IDLE_MS)
      // Said on every key: the SDK renews at most every CUSTOMER_TYPING_RENEW_MS.
      on = true
      say(true)
    },
    stop,
  }
}
