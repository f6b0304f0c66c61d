import type { PushPayload, PushPayloadInput } from '@tandem/contract'
import type { TandemError } from '../errors.js'
import type { BroadcastChannelConstructor } from '../cross-tab/platform.js'
import type { ReadableStore } from '../store.js'

/** Where push stands in this browser, for this page. */
export type PushStatus = 'unsupported' | 'default' | 'denied' | 'subscribing' | 'subscribed' | 'error'

/**
 * Why the status is what it is (null when there is nothing to say):
 * - `no_service_worker`, `no_push_manager`, `no_notifications`: what this browser lacks (`unsupported`);
 * - `no_user_gesture`: `enable()` was not called from a click (nothing was asked);
 * - `dismissed`: the permission prompt was closed without an answer; `blocked`: the browser says no;
 * - `revoked`: the permission was taken back while subscribed (the subscription was removed);
 * - `disabled`: `disable()`; `logged_out`: the key's `clearPersisted()` or the `signal`;
 * - `subscribe_failed`: the browser's push service refused; `bad_key`: the service's key answer was
 *   malformed or unusable; `register_failed`: the service refused the subscription (`error` says why).
 */
export type PushReason =
  | 'no_service_worker'
  | 'no_push_manager'
  | 'no_notifications'
  | 'no_user_gesture'
  | 'dismissed'
  | 'blocked'
  | 'revoked'
  | 'disabled'
  | 'logged_out'
  | 'subscribe_failed'
  | 'bad_key'
  | 'register_failed'

export interface PushState {
  status: PushStatus
  reason: PushReason | null
  error: TandemError | null
}

export interface PushOptions {
  /**
   * The page's service worker, where pushes land: e.g. `navigator.serviceWorker.ready` (which never
   * settles in a page with no worker registered: push then stays `subscribing`). A rejected promise
   * makes push `unsupported` (`no_service_worker`).
   */
  serviceWorker: ServiceWorkerRegistration | Promise<ServiceWorkerRegistration>
  /** The persist key: `clearPersisted({ key })` in any tab (its `cleared` message) removes the subscription. */
  key?: string
  /** The session: when it aborts (a logout, `messenger.shutdown()`), the subscription is removed and push stops. */
  signal?: AbortSignal
  /** Agents: the mailboxes whose customers' messages are pushed (absent: every mailbox). */
  mailboxIds?: string[]
  /** What a click on a notification opens; may hold `{conversationId}`. */
  url?: string
  /** Let `showIfHidden` show a local notification while this tab is open but hidden. @default false */
  hiddenTab?: boolean
  /** The tabs' channel (tests, other runtimes); the page's BroadcastChannel by default. */
  BroadcastChannel?: BroadcastChannelConstructor
}

export interface PushController extends ReadableStore<PushState> {
  /** Asks permission (call it from a click: it refuses with `no_user_gesture` otherwise), subscribes and registers. */
  enable(): Promise<PushState>
  /** Unsubscribes in the browser and removes the subscription on the service. */
  disable(): Promise<void>
  /**
   * Shows a message as a local notification, only when `hiddenTab` is on and this page is hidden:
   * a push payload, or a message (`PushPayloadInput`) shaped here as the service's push would be
   * (its `url`, when null, is this controller's). Resolves whether it was shown.
   */
  showIfHidden(message: PushPayload | PushPayloadInput): Promise<boolean>
  /** Stops listening (the subscription stays: pushes still arrive while no tab is open). */
  stop(): void
}
