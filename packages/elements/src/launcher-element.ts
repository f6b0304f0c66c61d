// The launcher element, as <tandem-messenger> and <tandem-devtools> both are: a round button in an
// open shadow root that opens and closes a panel imported on first open (or when the pointer or
// focus reaches the button, so it is usually there by the click). Escape closes it, and focus goes
// back to the button if it was inside. Styles are constructed sheets adopted by the root, so a
// strict CSP (no inline <style>) shows it. Each element brings its icon, sheet, words, panel and
// event names; what it shows besides (a badge, sources) is its own.
import { h, icon } from './dom.js'
import { mergeStrings } from './strings.js'

/** Importing this module outside a browser (SSR, tests in Node) must not throw: nothing is defined then. */
const Base = (typeof HTMLElement === 'undefined' ? class {} : HTMLElement) as typeof HTMLElement

/** One import for every element of the page; a failed one (offline) is tried again on the next call. */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined
      throw error
    }))
}

/** What the lazily loaded panel gives the launcher back. */
export interface LauncherPanel {
  /** The dialog; the element puts it in its shadow root and hides it when closed. */
  readonly node: HTMLElement
  /** Its stylesheet, which the element adopts into its shadow root beside the launcher's. */
  readonly sheet: CSSStyleSheet
  /** The panel was shown: focus moves into it. */
  opened(): void
  /** The panel was hidden. */
  closed?(): void
  /** The strings (or what else the panel reads) changed: render the words again. */
  refresh(): void
  /** Unsubscribes from everything and forgets what it showed. */
  destroy(): void
}

/** What an element built on LauncherElement brings. `M` is what its panel module gives (a mount function). */
export interface LauncherOptions<S extends { launcherLabel: string }, M> {
  /** The icon's path (`d`, in a 24×24 box). */
  icon: string
  /** The launcher's stylesheet (`sheet(css)`, starting with LAUNCHER_CSS). */
  sheet: () => CSSStyleSheet
  /** The English words, which a page's `strings` override key by key. */
  strings: S
  /** Imports the panel's module (made with `once`, so every element shares one import). */
  load: () => Promise<M>
  /** The events dispatched when the panel opens and when it closes. */
  events: readonly [open: string, close: string]
}

export abstract class LauncherElement<S extends { launcherLabel: string }, M> extends Base {
  readonly #root: ShadowRoot
  readonly #launcher: HTMLButtonElement
  readonly #label: HTMLSpanElement
  readonly #options: LauncherOptions<S, M>
  #strings: S
  #panel: LauncherPanel | null = null
  /** Open, or opening. */
  #open = false

  /** `extra`: more in the launcher button, after its icon and name (the messenger's badge). */
  constructor(options: LauncherOptions<S, M>, ...extra: Node[]) {
    super()
    this.#options = options
    this.#strings = mergeStrings(options.strings, null)
    // Open, not closed: axe and the page's own tests must see inside; a closed root hides
    // nothing from a script on the same page anyway.
    const root = (this.#root = this.attachShadow({ mode: 'open' }))
    root.adoptedStyleSheets = [options.sheet()]
    this.#label = h('span', { class: 'sr' }, this.#strings.launcherLabel)
    const launcher = (this.#launcher = h(
      'button',
      { type: 'button', class: 'launcher', 'aria-haspopup': 'dialog', 'aria-expanded': 'false' },
      icon(options.icon),
      this.#label,
      ...extra,
    ))
    launcher.addEventListener('click', () => void this.toggle().catch(() => {}))
    const prefetch = () => void options.load().catch(() => {})
    launcher.addEventListener('pointerenter', prefetch)
    launcher.addEventListener('focus', prefetch)
    root.addEventListener('keydown', (event) => {
      if ((event as KeyboardEvent).key !== 'Escape' || !this.#open) return
      event.stopPropagation()
      this.close()
    })
    root.append(launcher)
  }

  /** The words in use: English, with what the page set on top. */
  get strings(): S {
    return this.#strings
  }
  /** Any subset of the strings; the rest stay English (DEFAULT_STRINGS). */
  set strings(value: Partial<S> | null | undefined) {
    this.#strings = mergeStrings(this.#options.strings, value)
    this.render()
    this.refresh()
  }

  /** Whether the panel is open. */
  get isOpen(): boolean {
    return this.#open
  }

  /** Opens the panel (importing it the first time) and moves focus into it. */
  async open(): Promise<void> {
    const make = this.opening()
    if (this.#open) return
    this.#open = true
    const launcher = this.#launcher
    launcher.setAttribute('aria-busy', 'true')
    let mount: M
    try {
      mount = await this.#options.load()
    } catch (error) {
      this.#open = false
      throw error
    } finally {
      launcher.removeAttribute('aria-busy')
    }
    // Closed while the panel loaded: that wins.
    if (!this.#open) return
    let panel = this.#panel
    if (!panel) {
      // Disconnected, or given other sources, while the panel loaded: that wins too.
      if (!(panel = make(mount))) return
      this.#panel = panel
      this.#root.adoptedStyleSheets = [this.#options.sheet(), panel.sheet]
      this.#root.append(panel.node)
    }
    panel.node.hidden = false
    launcher.setAttribute('aria-expanded', 'true')
    panel.opened()
    this.emit(this.#options.events[0])
  }

  /** Hides the panel; focus goes back to the launcher if it was inside the element. */
  close(): void {
    if (!this.#open) return
    this.#open = false
    this.hide()
    this.emit(this.#options.events[1])
  }

  toggle(): Promise<void> {
    if (this.#open) {
      this.close()
      return Promise.resolve()
    }
    return this.open()
  }

  /**
   * Called as open() starts, before the panel's module loads (it may throw: the element cannot
   * open yet); returns what makes the panel once it has loaded, or null when the element's state
   * changed meanwhile and it must not open.
   */
  protected abstract opening(): (mount: M) => LauncherPanel | null

  /**
   * Forgets that the panel is open, without hiding it or saying so (the element does what else it
   * must, as when it lets go of its panel); returns whether it was open.
   */
  protected forget(): boolean {
    const was = this.#open
    this.#open = false
    return was
  }

  /** The launcher's words again; an element with more on its launcher renders that too. */
  protected render(): void {
    this.#label.textContent = this.#strings.launcherLabel
  }

  /** The panel renders its words again (the strings, or what else it reads, changed). */
  protected refresh(): void {
    this.#panel?.refresh()
  }

  /** The panel hidden, without the close event; focus back to the launcher if it was inside. */
  protected hide(): void {
    const hadFocus = this.#root.activeElement !== null
    const panel = this.#panel
    if (panel) {
      panel.node.hidden = true
      panel.closed?.()
    }
    this.#launcher.setAttribute('aria-expanded', 'false')
    if (hadFocus) this.#launcher.focus()
  }

  /** The panel destroyed and removed, if there is one: the next open makes a new one. */
  protected dropPanel(): void {
    const panel = this.#panel
    if (!panel) return
    panel.destroy()
    panel.node.remove()
    this.#panel = null
  }

  /** A DOM event from the element, seen outside its shadow root. */
  protected emit(type: string, detail?: unknown): void {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }))
  }
}
