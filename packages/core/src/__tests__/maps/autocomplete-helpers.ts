// Typing into an autocomplete store as a person would: a character every `msPerChar` on fake timers
// (the debounce), the service's answers on real ones (the emulator over HTTP), each awaited
// before the next keystroke, as when the network is faster than the typist.
import { vi } from 'vitest'
import type { Autocomplete, TandemClient } from '../../index.js'
import { waitUntil } from '../../../../../test/utils/wait.js'

export const ADDRESS = '1600 Amphitheatre Parkway, Mountain View'
export const ADDRESS_TEXT = '1600 Amphitheatre Parkway, Mountain View, United States'

/** Autocomplete requests that reached the service (aborted ones are counted apart). */
export function countRequests(client: TandemClient): { sent: () => number; aborted: () => number } {
  let sent = 0
  let aborted = 0
  client.on('request', (e) => {
    if (e.path !== '/v1/places:autocomplete') return
    if (e.errorCode === 'aborted') aborted++
    else sent++
  })
  return { sent: () => sent, aborted: () => aborted }
}

/** Resolves once nothing is asked of the service for the current input. */
export const settled = (ac: Autocomplete) =>
  waitUntil(() => ac.getSnapshot().status !== 'loading', { on: ac.subscribe, what: 'the answer', timeoutMs: 5_000 })

async function key(ac: Autocomplete, text: string, msPerChar: number): Promise<void> {
  ac.setQuery(text)
  await vi.advanceTimersByTimeAsync(msPerChar)
  await settled(ac)
}

/** Types `text` after what is already in the input (`from`), a character every `msPerChar`, then pauses. */
export async function type(ac: Autocomplete, text: string, msPerChar: number, from = ''): Promise<void> {
  for (let i = from.length + 1; i <= text.length; i++) await key(ac, text.slice(0, i), msPerChar)
  await key(ac, text, 2_000)
}

/** Backspaces from `text` down to `to`, a character every `msPerChar`, then pauses. */
export async function erase(ac: Autocomplete, text: string, to: string, msPerChar: number): Promise<void> {
  for (let i = text.length - 1; i >= to.length; i--) await key(ac, text.slice(0, i), msPerChar)
  await key(ac, to, 2_000)
}
