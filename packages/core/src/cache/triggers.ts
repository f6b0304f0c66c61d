import type { Unsubscribe } from '../types.js'

/** Something that tells the cache "now is a good time to revalidate" (focus, reconnect). */
export interface Trigger {
  subscribe(listener: () => void): Unsubscribe
}

export interface OnlineManager extends Trigger {
  /** While false, focus and interval refetches are skipped (they would only fail). */
  isOnline?(): boolean
}

export interface ManualTrigger extends Trigger {
  fire(): void
}

/** Attaches platform listeners; returns their cleanup. The online manager's `fire` takes the new state. */
export type AttachTrigger<V = void> = (fire: (value: V) => void) => (() => void) | undefined

/**
 * A trigger that attaches its platform listeners only while someone listens, so importing
 * or creating a client touches no `window` (SSR) and an idle cache holds no DOM listeners.
 * Without `attach` it only fires by hand: inject one in tests or React Native (AppState).
 */
export function createTrigger(attach?: AttachTrigger): ManualTrigger {
  const listeners = new Set<() => void>()
  let detach: (() => void) | undefined
  const fire = () => listeners.forEach((l) => l())
  return {
    fire,
    subscribe(listener) {
      const wrapped = () => listener()
      listeners.add(wrapped)
      if (listeners.size === 1) detach = attach?.(fire)
      return () => {
        if (listeners.delete(wrapped) && listeners.size === 0) {
          detach?.()
          detach = undefined
        }
      }
    },
  }
}

export function createFocusManager(attach: AttachTrigger = attachFocus): ManualTrigger {
  return createTrigger(attach)
}

/** Online state comes from the events, not `navigator.onLine` (unreliable; see SWR's web preset). */
export function createOnlineManager(
  attach: AttachTrigger<boolean> = attachOnline,
): ManualTrigger & Required<OnlineManager> {
  let online = true
  const trigger = createTrigger((fire) =>
    attach((value) => {
      online = value
      if (online) fire()
    }),
  )
  return {
    ...trigger,
    isOnline: () => online,
    fire: () => {
      online = true
      trigger.fire()
    },
  }
}

function attachFocus(fire: () => void): (() => void) | undefined {
  const w = globalThis.window
  const d = globalThis.document
  if (!w?.addEventListener || !d) return undefined
  const onFocus = () => {
    if (d.visibilityState !== 'hidden') fire()
  }
  return listen([
    [d, 'visibilitychange', onFocus],
    [w, 'focus', onFocus],
  ])
}

function attachOnline(fire: (online: boolean) => void): (() => void) | undefined {
  const w = globalThis.window
  if (!w?.addEventListener) return undefined
  return listen([
    [w, 'online', () => fire(true)],
    [w, 'offline', () => fire(false)],
  ])
}

/** Adds the listeners; returns the function that removes them. */
function listen(listeners: [target: EventTarget, type: string, listener: () => void][]): () => void {
  for (const [target, type, listener] of listeners) target.addEventListener(type, listener)
  return () => {
    for (const [target, type, listener] of listeners) target.removeEventListener(type, listener)
  }
}
