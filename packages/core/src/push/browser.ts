import { PUSH, PUSH_AUTH, PUSH_ENDPOINT, PUSH_P256DH, PUSH_RENEWED, isObject } from '@tandem/contract'
import type { BrowserSubscription, Permission } from './push-machine.js'
import type { PushReason } from './types.js'

// What push reads of the browser, in one place: what it lacks, the permission and its changes, the
// user activation, the subscription's fields (checked against the contract before they are sent).

type Nav = {
  serviceWorker?: ServiceWorkerContainer
  permissions?: Permissions
  userActivation?: { isActive: boolean }
}
const g = globalThis as { navigator?: Nav; PushManager?: unknown; Notification?: typeof Notification }

/** What this runtime lacks for Web Push (Node, an insecure page, iOS Safari outside a home-screen app), or null. */
export function lacks(): PushReason | null {
  if (!g.navigator?.serviceWorker) return 'no_service_worker'
  if (typeof g.PushManager !== 'function') return 'no_push_manager'
  if (typeof g.Notification !== 'function') return 'no_notifications'
  return null
}

export const permission = (): Permission => {
  const p = g.Notification?.permission
  return p === 'granted' || p === 'denied' ? p : 'default'
}

/** Within a click (transient activation); true where the browser cannot tell (no `userActivation`). */
export const userGesture = (): boolean => g.navigator?.userActivation?.isActive ?? true

/** `Notification.requestPermission()`, called at once (also the callback form of older Safari). */
export function requestPermission(): Promise<Permission> {
  return new Promise<NotificationPermission>((resolve, reject) => {
    // Older Safari answers through the callback only, and returns nothing.
    const asked = g.Notification!.requestPermission(resolve) as Promise<NotificationPermission> | undefined
    asked?.then(resolve, reject)
  }).then(
    (p) => (p === 'granted' || p === 'denied' ? p : 'default'),
    () => 'default' as const,
  )
}

/** Calls `onChange` when the notification permission changes (site settings); returns the cleanup. */
export function watchPermission(onChange: (p: Permission) => void): () => void {
  let status: PermissionStatus | undefined
  let stopped = false
  const changed = () => {
    const s = status?.state
    onChange(s === 'granted' || s === 'denied' ? s : 'default')
  }
  g.navigator?.permissions
    ?.query({ name: 'notifications' })
    .then((s) => {
      if (stopped) return
      status = s
      s.addEventListener('change', changed)
    })
    .catch(() => {}) // no permission query for notifications here: changes are seen on the next start
  return () => {
    stopped = true
    status?.removeEventListener('change', changed)
  }
}

/** Calls `onRenewed` when the page's service worker says the subscription was replaced. */
export function watchRenewal(onRenewed: () => void): () => void {
  const container = g.navigator?.serviceWorker
  const heard = (e: MessageEvent) => {
    if (isObject(e.data) && e.data.type === PUSH_RENEWED) onRenewed()
  }
  container?.addEventListener('message', heard)
  return () => container?.removeEventListener('message', heard)
}

/** base64url (unpadded) to bytes: the service's key as `applicationServerKey`. */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'))
  return Uint8Array.from(binary, (c) => c.charCodeAt(0))
}

/** Whether a subscription was made with `key` (a subscription that does not say is taken as another's). */
export function madeWith(subscription: PushSubscription, key: Uint8Array): boolean {
  const own = subscription.options?.applicationServerKey
  if (!own) return false
  const bytes = new Uint8Array(own)
  return bytes.length === key.length && bytes.every((b, i) => b === key[i])
}

/** `subscription.toJSON()` if it fits the contract's rules (the endpoint, the key lengths), else undefined. */
export function subscriptionOf(subscription: PushSubscription): BrowserSubscription | undefined {
  const json = subscription.toJSON()
  const { endpoint, keys, expirationTime } = json
  if (
    typeof endpoint !== 'string' ||
    endpoint.length > PUSH.endpointChars ||
    !PUSH_ENDPOINT.test(endpoint) ||
    !PUSH_P256DH.test(keys?.p256dh ?? '') ||
    !PUSH_AUTH.test(keys?.auth ?? '')
  )
    return undefined
  const expires = typeof expirationTime === 'number' && Number.isSafeInteger(expirationTime) ? expirationTime : null
  return { endpoint, keys: { p256dh: keys!.p256dh!, auth: keys!.auth! }, expirationTime: expires }
}
