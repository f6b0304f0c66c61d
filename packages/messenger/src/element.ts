// <tandem-messenger>: the launcher with its unread badge, always; the panel (list, thread,
// composer, help) is a module of its own, imported on first open (or when the pointer or focus
// reaches the launcher, so it is usually there by the click). The page pays the panel's bytes
// only once somebody opens it. Opening, closing, Escape and focus are the launcher base's
// (@tandem/elements, shared with <tandem-devtools>); the messenger, the badge and logout are here.
import type { Messenger } from '@tandem/core/messenger'
import { h, LauncherElement, once } from '@tandem/elements'
import { clearDrafts, drafts } from './drafts.js'
import { launcherSheet } from './launcher-styles.js'
import type { MessengerPush, MountPanel, Panel } from './panel-types.js'
import { DEFAULT_STRINGS, type MessengerStrings } from './strings.js'

const loadPanel = once(() => import('./panel/index.js').then((m) => m.mountPanel))

export class TandemMessengerElement extends LauncherElement<MessengerStrings, MountPanel> {
  readonly #badge: HTMLSpanElement
  #messenger: Messenger | null = null
  #push: MessengerPush | null = null
  #offUnread: (() => void) | undefined
  #unread = 0

  constructor() {
    const badge = h('span', { class: 'badge', role: 'img', hidden: '' })
    super(
      {
        // A speech bubble.
        icon: 'M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z',
        sheet: launcherSheet,
        strings: DEFAULT_STRINGS,
        load: loadPanel,
        events: ['tandem-open', 'tandem-close'],
      },
      badge,
    )
    this.#badge = badge
    this.render()
  }

  /** The customer's messenger (`messenger(client, { realtime })` from @tandem/core/messenger). */
  get messenger(): Messenger | null {
    return this.#messenger
  }
  set messenger(value: Messenger | null) {
    if (value === this.#messenger) return
    this.#detach()
    this.#messenger = value
    if (this.isConnected) this.#attach()
  }

  /**
   * Web push for the customer (`createPush(client, { serviceWorker })` from @tandem/core/push):
   * the panel shows a "Notify me of replies" control for it. None (the default): no control, and
   * nothing of push in the page.
   */
  get push(): MessengerPush | null {
    return this.#push
  }
  set push(value: MessengerPush | null) {
    this.#push = value
    this.refresh()
  }

  connectedCallback(): void {
    this.#attach()
  }

  disconnectedCallback(): void {
    this.#offUnread?.()
    this.#offUnread = undefined
  }

  /**
   * Logs the customer out of the messenger: `messenger.shutdown()`, then every trace of them is
   * removed (the panel's DOM, drafts in storage, the badge, the push subscription), back to the
   * closed launcher.
   */
  shutdown(): void {
    const wasOpen = this.forget()
    const messenger = this.#messenger
    const push = this.#push
    this.#detach()
    this.#messenger = this.#push = null
    messenger?.shutdown()
    // A logged-out customer gets no more notifications on this device.
    push?.disable().catch(() => {})
    clearDrafts()
    this.hide()
    if (wasOpen) this.emit('tandem-close')
  }

  protected opening(): (mount: MountPanel) => Panel | null {
    const messenger = this.#messenger
    if (!messenger) throw new TypeError('<tandem-messenger>: set its `messenger` property before opening it')
    // Shut down or given another messenger while the panel loaded: no panel for the old one.
    return (mount) =>
      this.#messenger === messenger
        ? mount({ messenger, push: () => this.#push, strings: () => this.strings, drafts, close: () => this.close() })
        : null
  }

  #attach(): void {
    const messenger = this.#messenger
    if (!messenger || this.#offUnread) return
    const store = messenger.unread
    const update = () => this.#setUnread(store.getSnapshot().total)
    this.#offUnread = store.subscribe(update)
    update()
  }

  /** Lets go of the current messenger: its store, its panel, its count. */
  #detach(): void {
    this.#offUnread?.()
    this.#offUnread = undefined
    this.dropPanel()
    this.#setUnread(0)
  }

  #setUnread(total: number): void {
    if (total === this.#unread) return
    this.#unread = total
    this.render()
    this.emit('tandem-unread', total)
  }

  protected override render(): void {
    super.render()
    const unread = this.#unread
    const badge = this.#badge
    badge.hidden = unread === 0
    badge.textContent = unread === 0 ? '' : unread > 99 ? '99+' : String(unread)
    badge.setAttribute('aria-label', this.strings.unread(unread))
  }
}
