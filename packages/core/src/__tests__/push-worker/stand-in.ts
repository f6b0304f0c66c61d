// A small stand-in of a service worker's global scope, as the browser gives it (not the service):
// listeners, the registration's notifications (one per tag, a newer one in place of the older, as
// browsers do), the window clients, and events whose waitUntil promises a test can wait on.
import type { PushPayload } from '@tandem/contract'
import type {
  PushNotificationOptions,
  PushWorkerScope,
  WorkerListener,
  WorkerPushSubscription,
} from '../../push-worker/types.js'

export interface StandInNotification extends PushNotificationOptions {
  title: string
  tag: string
  data: unknown
  closed: boolean
  close(): void
}

export interface StandInTab {
  url: string
  focused: number
  messages: unknown[]
  focus(): Promise<unknown>
  postMessage(message: unknown): void
}

export const ORIGIN = 'https://app.test'

export function payload(fields: Partial<PushPayload> = {}): PushPayload {
  return {
    v: 1,
    type: 'message',
    channel: 'support:customer:cus_1',
    messageId: 'thr_1',
    conversationId: 'cnv_1',
    title: 'Ada',
    body: 'Your parcel left the depot.',
    url: `${ORIGIN}/inbox?c=cnv_1`,
    sentAt: '2026-11-29T12:00:00.000Z',
    ...fields,
  }
}

/** A browser's subscription: `toJSON()` as browsers give it (keys in base64url). */
export function subscription(endpoint: string, keys: { p256dh: string; auth: string }): WorkerPushSubscription {
  return {
    endpoint,
    options: { applicationServerKey: new ArrayBuffer(65), userVisibleOnly: true },
    toJSON: () => ({ endpoint, expirationTime: null, keys }),
  }
}

export function createStandIn(options: { shown?: StandInNotification[]; scope?: string } = {}) {
  const listeners = new Map<string, Set<WorkerListener>>()
  /** Shared between two stand-ins: a worker that was stopped and started again sees the same notifications. */
  const shown = options.shown ?? []
  const tabs: StandInTab[] = []
  const opened: string[] = []
  const subscribed: WorkerPushSubscription['options'][] = []
  let next: WorkerPushSubscription | undefined

  const self: PushWorkerScope = {
    addEventListener: (type, listener) => {
      listeners.set(type, (listeners.get(type) ?? new Set()).add(listener))
    },
    removeEventListener: (type, listener) => void listeners.get(type)?.delete(listener),
    registration: {
      scope: options.scope ?? `${ORIGIN}/`,
      pushManager: {
        subscribe: async (o) => {
          subscribed.push(o)
          if (!next) throw new DOMException('Registration failed', 'AbortError')
          return next
        },
      },
      showNotification: async (title, o) => {
        const tag = o.tag ?? ''
        const n: StandInNotification = {
          ...o,
          title,
          tag,
          data: o.data,
          closed: false,
          close: () => {
            n.closed = true
            shown.splice(shown.indexOf(n), 1)
          },
        }
        const same = shown.findIndex((s) => tag !== '' && s.tag === tag)
        if (same >= 0) shown.splice(same, 1, n)
        else shown.push(n)
      },
      getNotifications: async () => [...shown],
    },
    clients: {
      matchAll: async () => [...tabs],
      openWindow: async (url) => {
        opened.push(url)
        return null
      },
    },
  }

  /** Dispatches an event to the listeners and waits for what they asked to wait for. */
  async function dispatch(type: string, fields: object): Promise<void> {
    const held: Promise<unknown>[] = []
    const event = { ...fields, waitUntil: (p: Promise<unknown>) => void held.push(p) }
    for (const listener of listeners.get(type) ?? []) listener(event)
    await Promise.all(held)
  }

  return {
    self,
    shown,
    tabs,
    opened,
    subscribed,
    listeners,
    /** A push with this text, as `PushEvent.data` (null: a push without data). */
    push: (text: string | null) =>
      dispatch('push', { data: text === null ? null : { json: () => JSON.parse(text) as unknown } }),
    click: (notification: object) => dispatch('notificationclick', { notification }),
    change: (fields: {
      oldSubscription?: WorkerPushSubscription | null
      newSubscription?: WorkerPushSubscription | null
    }) => dispatch('pushsubscriptionchange', fields),
    /** What `pushManager.subscribe` gives next (none: it fails, as with the permission revoked). */
    willSubscribe: (s: WorkerPushSubscription | undefined) => void (next = s),
    tab(url: string): StandInTab {
      const tab: StandInTab = {
        url,
        focused: 0,
        messages: [],
        focus: async () => ++tab.focused,
        postMessage: (m) => void tab.messages.push(m),
      }
      tabs.push(tab)
      return tab
    },
  }
}
