// handlePush(self): Web Push in a service worker (docs/push.md). No DOM, no `window`: it runs in a
// worker built by Vite and in a plain module worker alike.
import { BASE_URL } from '../defaults.js'
import { onClick } from './click.js'
import { onSubscriptionChange } from './renew.js'
import { onPush } from './show.js'
import type { HandlePushOptions, PushWorkerScope, Say } from './types.js'

/**
 * Registers the `push`, `notificationclick` and `pushsubscriptionchange` listeners on `self`; the
 * function it returns removes them. Each reason something was not shown is logged once per worker.
 */
export function handlePush(self: PushWorkerScope, options: HandlePushOptions = {}): () => void {
  const said = new Set<string>()
  const say: Say = (reason, sentence) => {
    if (said.has(reason)) return
    said.add(reason)
    console.warn(`[tandem] ${reason}${sentence ? `: ${sentence}` : ''}`)
  }
  const listeners = {
    push: onPush(self, options, say),
    notificationclick: onClick(self),
    pushsubscriptionchange: onSubscriptionChange(self, (options.baseUrl ?? BASE_URL).replace(/\/+$/, ''), say),
  }
  for (const [type, listener] of Object.entries(listeners)) self.addEventListener(type, listener)
  return () => {
    for (const [type, listener] of Object.entries(listeners)) self.removeEventListener(type, listener)
  }
}
