// A stand-in for THE BROWSER ONLY (Node has no PushManager, Notification or permission query): a
// service worker registration whose pushManager makes real P-256 key pairs (node:crypto) and https
// endpoints, the notification permission, its prompt and its change event, the user activation and
// the page's visibility. Everything that goes to the service is real HTTP to the emulator.
import { createECDH, randomBytes } from 'node:crypto'
import { vi } from 'vitest'

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')

export class FakeSubscription {
  readonly endpoint = `https://push.test/send/${randomBytes(9).toString('base64url')}`
  readonly expirationTime = null
  readonly options: { userVisibleOnly: boolean; applicationServerKey: ArrayBuffer }
  /** The private key stays here: a receiver could decrypt with it. */
  readonly ecdh = createECDH('prime256v1')
  readonly auth = randomBytes(16)
  constructor(
    private readonly manager: FakePushManager,
    key: Uint8Array,
  ) {
    this.ecdh.generateKeys()
    this.options = { userVisibleOnly: true, applicationServerKey: new Uint8Array(key).buffer }
  }
  toJSON() {
    const p256dh = b64url(this.ecdh.getPublicKey())
    return { endpoint: this.endpoint, expirationTime: null, keys: { p256dh, auth: b64url(this.auth) } }
  }
  async unsubscribe(): Promise<boolean> {
    this.manager.unsubscribed.push(this.endpoint)
    if (this.manager.current === this) this.manager.current = null
    return true
  }
}

export class FakePushManager {
  current: FakeSubscription | null = null
  /** Endpoints unsubscribed, in order. */
  readonly unsubscribed: string[] = []
  /** The keys `subscribe` was called with, as base64url. */
  readonly subscribedWith: string[] = []
  refuse: Error | undefined
  /** Holds `subscribe` until it settles (a browser's push service taking its time). */
  hold: Promise<void> | undefined
  async getSubscription() {
    return this.current
  }
  async subscribe(o: { userVisibleOnly: boolean; applicationServerKey: BufferSource }) {
    if (!o.userVisibleOnly) throw new DOMException('userVisibleOnly is required', 'NotAllowedError')
    if (this.refuse) throw this.refuse
    const key = new Uint8Array(o.applicationServerKey as ArrayBuffer)
    this.subscribedWith.push(b64url(key))
    await this.hold
    // The same key again: the browser gives the same subscription.
    if (this.current) return this.current
    return (this.current = new FakeSubscription(this, key))
  }
}

class FakePermissionStatus extends EventTarget {
  state: PermissionState = 'prompt'
}

export interface FakeBrowser {
  pushManager: FakePushManager
  registration: ServiceWorkerRegistration
  shown: { title: string; options: NotificationOptions }[]
  /** How many times the page asked the permission. */
  asked: () => number
  /** The answer the next prompt gives. */
  answer: NotificationPermission
  /** Within a click (or not). */
  activation: { isActive: boolean }
  visibility: DocumentVisibilityState
  /** The site's settings change: the permission query's change event. */
  setPermission(p: NotificationPermission): void
  /** The service worker's message to the page. */
  postFromWorker(data: unknown): void
  /** A subscription made earlier with another key (the service's key was rotated since). */
  subscribedEarlier(key: Uint8Array): FakeSubscription
}

/** Installs the browser's globals for one test (removed by `vi.unstubAllGlobals()` and `vi.restoreAllMocks()`). */
export function installBrowser(o: { permission?: NotificationPermission; activation?: boolean } = {}): FakeBrowser {
  const pushManager = new FakePushManager()
  const status = new FakePermissionStatus()
  const serviceWorker = new EventTarget()
  let permission: NotificationPermission = o.permission ?? 'default'
  let asked = 0
  const shown: FakeBrowser['shown'] = []
  const setPermission = (p: NotificationPermission) => {
    permission = p
    status.state = p === 'default' ? 'prompt' : p
    if (p !== 'granted') pushManager.current = null // the browser drops the subscription with the permission
    status.dispatchEvent(new Event('change'))
  }
  setPermission(permission)
  const browser: FakeBrowser = {
    pushManager,
    registration: {
      pushManager,
      async showNotification(title: string, options: NotificationOptions) {
        shown.push({ title, options })
      },
    } as unknown as ServiceWorkerRegistration,
    shown,
    asked: () => asked,
    answer: 'granted',
    activation: { isActive: o.activation ?? true },
    visibility: 'visible',
    setPermission,
    postFromWorker: (data) => serviceWorker.dispatchEvent(new MessageEvent('message', { data })),
    subscribedEarlier: (key) => (pushManager.current = new FakeSubscription(pushManager, key)),
  }
  class FakeNotification {
    static get permission() {
      return permission
    }
    static async requestPermission() {
      asked++
      permission = browser.answer
      status.state = permission === 'default' ? 'prompt' : permission
      return permission
    }
  }
  vi.stubGlobal('PushManager', FakePushManager)
  vi.stubGlobal('Notification', FakeNotification)
  vi.stubGlobal('navigator', {
    serviceWorker,
    permissions: { query: async ({ name }: { name: string }) => (name === 'notifications' ? status : undefined) },
    userActivation: browser.activation,
  })
  // A DOM (happy-dom) keeps its document: only its visibility is the test's.
  const visibility = { get: () => browser.visibility }
  if (globalThis.document) vi.spyOn(globalThis.document, 'visibilityState', 'get').mockImplementation(visibility.get)
  else vi.stubGlobal('document', Object.defineProperty({}, 'visibilityState', visibility))
  return browser
}
