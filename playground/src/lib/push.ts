import { PUSH_URL } from '@tandem/contract'
import type { TandemClient } from '@tandem/core'
import { createPush, type PushController } from '@tandem/core/push'

/**
 * The page's service worker, where pushes land: the app shell's (src/sw/sw.ts), which a
 * production build registers. In development there is none (app-shell.ts), unless `TANDEM_SW=1`
 * registered it on an earlier load; then `ready` would never settle, so the registration there
 * is read once and its absence refused: push is `unsupported`.
 */
export function pushWorker(): Promise<ServiceWorkerRegistration> {
  const found =
    'serviceWorker' in navigator
      ? import.meta.env.PROD
        ? navigator.serviceWorker.ready
        : navigator.serviceWorker
            .getRegistration()
            .then((r) => r ?? Promise.reject(new Error('no service worker in a development build')))
      : Promise.reject(new Error('no service workers in this browser'))
  // Handled here too: a browser without PushManager never reads it, and a refusal is no page error.
  found.catch(() => {})
  return found
}

export interface SessionPushOptions {
  /** The persist key: a logout (`clearPersisted({ key })`) in any tab removes the subscription. */
  key?: string
  /** What a notification's click opens; `{conversationId}` is put in by the worker. */
  url: string
  /** Let `showIfHidden` show a reply that reaches a hidden tab (the SDK's default: off). */
  hiddenTab?: boolean
  signal?: AbortSignal
}

/**
 * One push controller per tab and user: `enable()` from a click subscribes this browser, and the
 * service pushes that user's messages here while none of their tabs is open.
 */
export function createSessionPush(client: TandemClient, options: SessionPushOptions): PushController {
  const { url, ...rest } = options
  // The service takes an https: page, or http: on a loopback host; elsewhere a click opens the worker's default.
  return createPush(client, { serviceWorker: pushWorker(), ...rest, ...(PUSH_URL.test(url) ? { url } : {}) })
}
