// The parts of a service worker's global scope the push helper touches, as shapes of their own:
// core compiles against the DOM library, which has no ServiceWorkerGlobalScope, and a test hands in
// a small stand-in. `self` of a worker (lib WebWorker) fits them as it is.
import type { PushPayload } from '@tandem/contract'

/** A notification the worker shows or reads back (`registration.getNotifications()`). */
export interface ShownNotification {
  readonly tag: string
  readonly data: unknown
  close(): void
}

/** What `showNotification` is given (TypeScript's DOM library lacks `renotify`). */
export interface PushNotificationOptions {
  body?: string
  tag?: string
  data?: unknown
  renotify?: boolean
  icon?: string
  badge?: string
  lang?: string
  dir?: 'auto' | 'ltr' | 'rtl'
  requireInteraction?: boolean
  silent?: boolean | null
}

/** A browser push subscription as the worker reads it (`PushSubscription`). */
export interface WorkerPushSubscription {
  readonly endpoint: string
  readonly options: { readonly applicationServerKey: ArrayBuffer | null; readonly userVisibleOnly: boolean }
  toJSON(): { endpoint?: string; expirationTime?: number | null; keys?: Record<string, string> }
}

/** A tab of the worker's origin (`WindowClient`). */
export interface WorkerWindowClient {
  readonly url: string
  focus(): Promise<unknown>
  postMessage(message: unknown): void
}

/**
 * A listener for one of the worker's events. A method's type, so its parameter is compared both
 * ways: `self.addEventListener` takes any event's listener, and each handler here takes its own event.
 */
export type WorkerListener = { listener(event: unknown): void }['listener']

/** What `handlePush` needs of `self`: a service worker's global scope has all of it. */
export interface PushWorkerScope {
  addEventListener(type: string, listener: WorkerListener): void
  removeEventListener(type: string, listener: WorkerListener): void
  readonly registration: {
    readonly scope: string
    readonly pushManager: {
      subscribe(options: WorkerPushSubscription['options']): Promise<WorkerPushSubscription>
    }
    showNotification(title: string, options: PushNotificationOptions): Promise<void>
    getNotifications(): Promise<readonly ShownNotification[]>
  }
  readonly clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly WorkerWindowClient[]>
    openWindow(url: string): Promise<unknown>
  }
}

/** An event a worker may keep alive (`ExtendableEvent`). */
export interface WorkerEvent {
  waitUntil(promise: Promise<unknown>): void
}

/** A notification's title and body, from the payload. */
export interface PushWorkerStrings {
  /** Default: the payload's `title` (who wrote). */
  title: (payload: PushPayload) => string
  /** Default: the payload's `body` (the message, shortened by the service). */
  body: (payload: PushPayload) => string
}

/** What an app may add to a notification: an icon, a badge, another title. Its tag and data stay the helper's. */
export type PushRender = (payload: PushPayload) => PushNotificationOptions & { title?: string }

export interface HandlePushOptions {
  strings?: Partial<PushWorkerStrings>
  /** The service's base URL, as the page's client has it (`pushsubscriptionchange` renews there). Default `https://api.tandem.dev`. */
  baseUrl?: string
  render?: PushRender
}

/** Says a reason once per worker (never the payload's text). */
export type Say = (reason: string, sentence?: string | false) => void
