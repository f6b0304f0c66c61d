import { createStore } from '@tandem/core'
import { registerSW } from 'virtual:pwa-register'
import type { EventLog } from '../lib/event-log.js'

/** `none`: no worker (development) or not installed yet; `ready`: a reload works offline; `update`: a new version waits. */
export type ShellState = 'none' | 'ready' | 'update'

export interface ShellWorker {
  subscribe(listener: () => void): () => void
  getSnapshot(): ShellState
  /** Lets the waiting version take over; the page reloads into it. */
  update(): Promise<void>
}

/**
 * Registers the app-shell service worker (src/sw/sw.ts) of a production build; in development
 * `virtual:pwa-register` is an empty function and this stays `none`. A new version is never
 * forced on an open page: it waits for the person's Reload (UpdateNotice).
 */
export function registerShellWorker(log: EventLog): ShellWorker {
  const store = createStore<ShellState>('none')
  const update = registerSW({
    onOfflineReady() {
      store.set('ready')
      log.add('app', 'app shell saved on this device: a reload works offline')
    },
    onNeedRefresh: () => store.set('update'),
    onRegisterError(error: unknown) {
      log.add('error', `service worker not registered: ${error instanceof Error ? error.message : String(error)}`)
    },
  })
  return {
    subscribe: store.subscribe,
    getSnapshot: store.getSnapshot,
    update() {
      // Reload once the waiting version controls the page. (The plugin reloads only a page that
      // was controlled when it loaded: not the first visit, which the first worker claimed.)
      navigator.serviceWorker.addEventListener('controllerchange', () => location.reload(), { once: true })
      return update(true)
    },
  }
}
