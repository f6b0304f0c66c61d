// <tandem-messenger>: the launcher with its unread badge, always; the panel (list, thread,
// composer, help) is a module of its own, imported on first open (or when the pointer or focus
// reaches the launcher, so it is usually there by the click). The page pays the panel's bytes
// only once somebody opens it.
import type { Messenger } from '@tandem/core/messenger'
import { h } from '@tandem/core/internal'
import { clearDrafts, drafts } from './drafts.js'
import { launcherSheet } from './launcher-styles.js'
import type { MountPanel, Panel } from './panel-types.js'
import { mergeStrings, type MessengerStrings } from './strings.js'

/** Importing this module outside a browser (SSR, tests in Node) must not throw: nothing is defined then. */
const Base = (typeof HTMLElement === 'undefined' ? class {} : HTMLElement) as typeof HTMLElement

const SVG = 'http://www.w3.org/2000/svg'
const icon = (): SVGSVGElement => {
  const svg = document.createElementNS(SVG, 'svg')
  svg.setAttribute('viewBox', '0 0 24 24')
  svg.setAttribute('aria-hidden', 'true')
  const path = document.createElementNS(SVG, 'path')
  path.setAttribute('d', 'M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z')
  svg.append(path)
  return svg
}

let panelModule: Promise<MountPanel> | undefined
/** One import for every element of the page; a failed one (offline) is tried again on the next open. */
const loadPanel = (): Promise<MountPanel> =>
  (panelModule ??= import('./panel/index.js').then(
    (m) => m.mountPanel,
    (error: unknown) => {
      panelModule = undefined
      throw error
    },
  ))

export class TandemMessengerElement extends Base {
  readonly #root: ShadowRoot
  readonly #launcher: HTMLButtonElement
  readonly #label: HTMLSpanElement
  readonly #badge: HTMLSpanElement
  #messenger: Messenger | null = null
  #strings: MessengerStrings = mergeStrings(null)
  #offUnread: (() => void) | undefined
  #unread = 0
  #panel: Panel | null = null
  #open = false

  constructor() {
    super()
    // Open, not closed: axe and the page's own tests must see inside; a closed root hides
    // nothing from a script on the same page anyway.
    this.#root = this.attachShadow({ mode: 'open' })
    this.#root.adoptedStyleSheets = [launcherSheet()]
    this.#label = h('span', { class: 'sr' })
    this.#badge = h('span', { class: 'badge', role: 'img', hidden: '' })
    this.#launcher = h(
      'button',
      { type: 'button', class: 'launcher', 'aria-haspopup': 'dialog', 'aria-expanded': 'false' },
      icon(),
      this.#label,
      this.#badge,
    )
    this.#launcher.addEventListener('click', () => void this.toggle().catch(() => {}))
    const prefetch = () => void loadPanel().catch(() => {})
    this.#launcher.addEventListener('pointerenter', prefetch)
    this.#launcher.addEventListener('focus', prefetch)
    this.#root.addEventListener('keydown', (event) => {
      if ((event as KeyboardEvent).key !== 'Escape' || !this.#open) return
      event.stopPropagation()
      this.close()
    })
    this.#root.append(this.#launcher)
    this.#renderLauncher()
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

  /** The words in use: English, with what the page set on top. */
  get strings(): MessengerStrings {
    return this.#strings
  }
  /** Any subset of the strings; the rest stay English (DEFAULT_STRINGS). */
  set strings(value: Partial<MessengerStrings> | null) {
    this.#strings = mergeStrings(value)
    this.#renderLauncher()
    this.#panel?.refresh()
  }

  /** Whether the panel is open. */
  get isOpen(): boolean {
    return this.#open
  }

  connectedCallback(): void {
    this.#attach()
  }

  disconnectedCallback(): void {
    this.#offUnread?.()
    this.#offUnread = undefined
  }

  /** Opens the panel (importing it the first time) and moves focus into it. */
  async open(): Promise<void> {
    const messenger = this.#messenger
    if (!messenger) throw new TypeError('<tandem-messenger>: set its `messenger` property before opening it')
    if (this.#open) return
    this.#open = true
    this.#launcher.setAttribute('aria-busy', 'true')
    let mount: MountPanel
    try {
      mount = await loadPanel()
    } catch (error) {
      this.#open = false
      throw error
    } finally {
      this.#launcher.removeAttribute('aria-busy')
    }
    // Closed, shut down or given another messenger while the panel loaded: that wins.
    if (!this.#open || this.#messenger !== messenger) return
    if (!this.#panel) {
      this.#panel = mount({ messenger, strings: () => this.#strings, drafts, close: () => this.close() })
      this.#root.adoptedStyleSheets = [launcherSheet(), this.#panel.sheet]
      this.#root.append(this.#panel.node)
    }
    this.#panel.node.hidden = false
    this.#launcher.setAttribute('aria-expanded', 'true')
    this.#panel.focus()
    this.#emit('tandem-open')
  }

  /** Hides the panel; focus goes back to the launcher if it was inside the messenger. */
  close(): void {
    if (!this.#open) return
    this.#open = false
    this.#hide()
    this.#emit('tandem-close')
  }

  toggle(): Promise<void> {
    if (this.#open) {
      this.close()
      return Promise.resolve()
    }
    return this.open()
  }

  /**
   * Logs the customer out of the messenger: `messenger.shutdown()`, then every trace of them is
   * removed (the panel's DOM, drafts in storage, the badge), back to the closed launcher.
   */
  shutdown(): void {
    const wasOpen = this.#open
    this.#open = false
    const messenger = this.#messenger
    this.#detach()
    this.#messenger = null
    messenger?.shutdown()
    clearDrafts()
    this.#hide()
    if (wasOpen) this.#emit('tandem-close')
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
    if (this.#panel) {
      this.#panel.destroy()
      this.#panel.node.remove()
      this.#panel = null
    }
    this.#setUnread(0)
  }

  #hide(): void {
    const hadFocus = this.#root.activeElement !== null
    if (this.#panel) this.#panel.node.hidden = true
    this.#launcher.setAttribute('aria-expanded', 'false')
    if (hadFocus) this.#launcher.focus()
  }

  #setUnread(total: number): void {
    if (total === this.#unread) return
    this.#unread = total
    this.#renderLauncher()
    this.#emit('tandem-unread', total)
  }

  #renderLauncher(): void {
    this.#label.textContent = this.#strings.launcherLabel
    this.#badge.hidden = this.#unread === 0
    this.#badge.textContent = this.#unread === 0 ? '' : this.#unread > 99 ? '99+' : String(this.#unread)
    this.#badge.setAttribute('aria-label', this.#strings.unread(this.#unread))
  }

  #emit(type: 'tandem-open' | 'tandem-close' | 'tandem-unread', detail?: number): void {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }))
  }
}
