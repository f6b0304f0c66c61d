// <tandem-messenger>: the launcher with its unread badge, always; the panel (list, thread,
// composer, help) is a module of its own, imported on first open (or when the pointer or focus
// reaches the launcher, so it is usually there by the click). The page pays the panel's bytes
// only once somebody opens it. Opening, closing, Escape and focus are the launcher base's
// (@tandem/elements, shared with <tandem-devtools>); the messenger, the badge, a hidden tab's own
// notification of a reply and logout are here.
import { customerChannelName } from '@tandem/contract'
import type { CustomerMessage, Messenger } from '@tandem/core/messenger'
import { h, LauncherElement, once } from '@tandem/elements'
import { clearDrafts, drafts } from './drafts.js'
import { launcherSheet } from './launcher-styles.js'
import type { MessengerPush, MountPanel, Panel } from './panel-types.js'
import { DEFAULT_STRINGS, type MessengerStrings } from './strings.js'

const loadModule = once(() => import('./panel/index.js'))
const loadPanel = () => loadModule().then((m) => m.mountPanel)

export class TandemMessengerElement extends LauncherElement<MessengerStrings, MountPanel> {
  readonly #badge: HTMLSpanElement
  #messenger: Messenger | null = null
  #push: MessengerPush | null = null
  #offUnread: (() => void) | undefined
  #offMessage: (() => void) | undefined
  /** The customer's id (`me()`), asked once per messenger, on the first reply that needs it. */
  #customerId: Promise<string> | undefined
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
   * the panel shows a "Notify me of replies" control for it, and an agent's reply that reaches
   * a hidden tab goes to its `showIfHidden` (shown with `hiddenTab: true` only). None (the
   * default): no control, and nothing of push in the page.
   */
  get push(): MessengerPush | null {
    return this.#push
  }
  set push(value: MessengerPush | null) {
    // Anything but a controller (`{}`, createPush itself) is none: a setter never throws, and the
    // panel and shutdown() only ever call a controller's methods.
    this.#push = isPush(value) ? value : null
    this.#unlisten()
    if (this.isConnected) this.#listen()
    this.refresh()
  }

  connectedCallback(): void {
    this.#attach()
  }

  disconnectedCallback(): void {
    this.#offUnread?.()
    this.#offUnread = undefined
    this.#unlisten()
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
    this.#listen()
  }

  /** Lets go of the current messenger: its store, its panel, its count, its replies. */
  #detach(): void {
    this.#offUnread?.()
    this.#offUnread = undefined
    this.#unlisten()
    this.#customerId = undefined
    this.dropPanel()
    this.#setUnread(0)
  }

  /** Hears the messenger's replies while a push that can show them (`showIfHidden`) is set. */
  #listen(): void {
    const messenger = this.#messenger
    const push = this.#push
    if (!messenger || this.#offMessage || typeof push?.showIfHidden !== 'function') return
    try {
      this.#offMessage = messenger.on('message', (message) => this.#notify(messenger, push, message))
    } catch {
      // A messenger already shut down hears nothing: there is nothing to notify of.
    }
  }

  #unlisten(): void {
    this.#offMessage?.()
    this.#offMessage = undefined
  }

  /**
   * An agent's reply reached this tab while it is hidden: the service pushes nothing while a tab is
   * open, so the page's controller may show its own notification (the same payload as a push's).
   */
  #notify(messenger: Messenger, push: MessengerPush, message: CustomerMessage): void {
    // Checked here too so a visible tab never asks me() for nothing.
    if (message.author.type !== 'agent' || document.visibilityState !== 'hidden') return
    const asked = (this.#customerId ??= messenger.me().then(
      (me) => me.id,
      (error: unknown) => {
        this.#customerId = undefined // asked again on the next reply
        throw error
      },
    ))
    asked
      .then((customerId) => {
        // Logged out, or given another messenger or push, meanwhile: nothing to show.
        if (this.#messenger !== messenger || this.#push !== push) return
        // The message as the service would push it: the controller shapes it (the contract's
        // pushPayloadOf), so the messenger carries none of the payload's rules.
        return push.showIfHidden?.({
          channel: customerChannelName(customerId),
          messageId: message.id,
          conversationId: message.conversationId,
          title: message.author.name ?? this.strings.agent,
          text: message.text,
          url: null, // the controller's own `url`, or the worker's scope
          sentAt: message.createdAt,
        })
      })
      .catch(() => {}) // a notification that could not be shown is not the page's error
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

const isPush = (value: unknown): value is MessengerPush =>
  typeof value === 'object' &&
  value !== null &&
  ['getSnapshot', 'subscribe', 'enable', 'disable'].every(
    (name) => typeof (value as Record<string, unknown>)[name] === 'function',
  )
