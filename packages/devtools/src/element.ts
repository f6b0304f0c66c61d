// <tandem-devtools>: the launcher and the recorder, always; the panel (its tabs and views) is a
// module of its own, imported on first open (or when the pointer or focus reaches the launcher).
// The recorder starts when the element is connected with its sources, so the panel opened later
// shows what happened before; one given (`recorder`, made by the app before this module loaded)
// reaches back further, and stays the app's: the element shows it, never stops it.
import type { Client } from '@tandem/core'
import type { CachePersister, DurableOutbox } from '@tandem/core/persist'
import { h } from '@tandem/core/internal'
import { launcherSheet } from './launcher-styles.js'
import { goOnline, isForcedOffline } from './offline.js'
import type { MountPanel, Panel } from './panel-types.js'
import { createDevtoolsRecorder } from './recorder.js'
import { mergeStrings, type DevtoolsStrings } from './strings.js'
import type { Realtime } from '@tandem/realtime'
import type { DevtoolsActions, DevtoolsRecorder, DevtoolsSources, DevtoolsTabs } from './types.js'

/** Importing this module outside a browser (SSR, tests in Node) must not throw: nothing is defined then. */
const Base = (typeof HTMLElement === 'undefined' ? class {} : HTMLElement) as typeof HTMLElement

const SVG = 'http://www.w3.org/2000/svg'
const icon = (): SVGSVGElement => {
  const svg = document.createElementNS(SVG, 'svg')
  svg.setAttribute('viewBox', '0 0 24 24')
  svg.setAttribute('aria-hidden', 'true')
  const path = document.createElementNS(SVG, 'path')
  path.setAttribute('d', 'M3 12h4l3-8 4 16 3-8h4') // a pulse: what goes on underneath
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

export class TandemDevtoolsElement extends Base {
  readonly #root: ShadowRoot
  readonly #launcher: HTMLButtonElement
  readonly #label: HTMLSpanElement
  #sources: DevtoolsSources = {}
  #actions: DevtoolsActions | undefined
  #strings: DevtoolsStrings = mergeStrings(null)
  #recorder: DevtoolsRecorder | undefined
  /** The app's recorder, if it gave one: used instead of one of the element's own, never stopped here. */
  #given: DevtoolsRecorder | undefined
  #panel: Panel | null = null
  #open = false
  #restartQueued = false

  constructor() {
    super()
    // Open, not closed: axe and the page's own tests must see inside.
    this.#root = this.attachShadow({ mode: 'open' })
    this.#root.adoptedStyleSheets = [launcherSheet()]
    this.#label = h('span', { class: 'sr' })
    this.#launcher = h(
      'button',
      { type: 'button', class: 'launcher', 'aria-haspopup': 'dialog', 'aria-expanded': 'false' },
      icon(),
      this.#label,
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

  /** `createClient(…)`: requests, retries, rate limits, tokens and the cache. */
  get client(): Client | undefined {
    return this.#sources.client
  }
  set client(value: Client | undefined) {
    this.#setSource('client', value)
  }

  /** `createRealtime(…)`: the connection, its frames and channels. */
  get realtime(): Realtime | undefined {
    return this.#sources.realtime
  }
  set realtime(value: Realtime | undefined) {
    this.#setSource('realtime', value)
  }

  /** `shareAcrossTabs({ key })`: this tab's role in the shared connection. */
  get tabs(): DevtoolsTabs | undefined {
    return this.#sources.tabs
  }
  set tabs(value: DevtoolsTabs | undefined) {
    this.#setSource('tabs', value)
  }

  /** `durableOutbox({ key })`: shows the Outbox tab. */
  get outbox(): DurableOutbox | undefined {
    return this.#sources.outbox
  }
  set outbox(value: DurableOutbox | undefined) {
    this.#setSource('outbox', value)
  }

  /** `persistCache(…)`: shows the Saved cache tab. */
  get persister(): CachePersister | undefined {
    return this.#sources.persister
  }
  set persister(value: CachePersister | undefined) {
    this.#setSource('persister', value)
  }

  /** The Actions toolbar's buttons (`emulatorActions({ user })` against the emulator). */
  get actions(): DevtoolsActions | undefined {
    return this.#actions
  }
  set actions(value: DevtoolsActions | undefined) {
    this.#actions = value ?? undefined
    this.#panel?.refresh()
  }

  /** The words in use: English, with what the page set on top. */
  get strings(): DevtoolsStrings {
    return this.#strings
  }
  /** Any subset of the strings; the rest stay English (DEFAULT_STRINGS). */
  set strings(value: Partial<DevtoolsStrings> | null | undefined) {
    this.#strings = mergeStrings(value)
    this.#renderLauncher()
    this.#panel?.refresh()
  }

  /**
   * What the panel shows: the recorder given, or the element's own, made when it is connected
   * with its sources (undefined before).
   */
  get recorder(): DevtoolsRecorder | undefined {
    return this.#recorder ?? this.#given
  }
  /** The app's recorder (`createDevtoolsRecorder`): shown, never stopped by the element. */
  set recorder(value: DevtoolsRecorder | undefined) {
    if (value === this.#given) return
    this.#given = value ?? undefined
    this.#restart()
  }

  /** Whether the panel is open. */
  get isOpen(): boolean {
    return this.#open
  }

  connectedCallback(): void {
    this.#start()
  }

  disconnectedCallback(): void {
    this.#stop()
    this.#open = false
    this.#launcher.setAttribute('aria-expanded', 'false')
    // The page must not stay "offline" because its devtools went away.
    if (isForcedOffline()) goOnline()
  }

  /** Opens the panel (importing it the first time) and moves focus to its selected tab. */
  async open(): Promise<void> {
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
    // Closed or disconnected while the panel loaded: that wins.
    if (!this.#open || !this.isConnected) return
    this.#start()
    const recorder = this.#recorder
    if (!recorder) return
    if (!this.#panel) {
      this.#panel = mount({
        sources: this.#sources,
        recorder,
        actions: () => this.#actions,
        strings: () => this.#strings,
        close: () => this.close(),
      })
      this.#root.adoptedStyleSheets = [launcherSheet(), this.#panel.sheet]
      this.#root.append(this.#panel.node)
    }
    this.#panel.node.hidden = false
    this.#launcher.setAttribute('aria-expanded', 'true')
    this.#panel.opened()
    this.#emit('tandem-devtools-open')
  }

  /** Hides the panel; focus goes back to the launcher if it was inside the devtools. */
  close(): void {
    if (!this.#open) return
    this.#open = false
    const hadFocus = this.#root.activeElement !== null
    if (this.#panel) {
      this.#panel.node.hidden = true
      this.#panel.closed()
    }
    this.#launcher.setAttribute('aria-expanded', 'false')
    if (hadFocus) this.#launcher.focus()
    this.#emit('tandem-devtools-close')
  }

  toggle(): Promise<void> {
    if (this.#open) {
      this.close()
      return Promise.resolve()
    }
    return this.open()
  }

  #setSource<K extends keyof DevtoolsSources>(key: K, value: DevtoolsSources[K] | null | undefined): void {
    if (value === this.#sources[key]) return
    this.#sources = { ...this.#sources, [key]: value ?? undefined }
    this.#restart()
  }

  #restart(): void {
    if (!this.isConnected || this.#restartQueued) return
    // Properties are set one after the other: one restart for all of them.
    this.#restartQueued = true
    queueMicrotask(() => {
      this.#restartQueued = false
      if (!this.isConnected) return
      const wasOpen = this.#open
      this.#stop()
      this.#start()
      if (wasOpen) {
        this.#open = false
        void this.open().catch(() => {})
      }
    })
  }

  /** Records from the sources (once connected); a panel, if any, is made again on the next open. */
  #start(): void {
    if (this.#recorder || !this.isConnected) return
    this.#recorder = this.#given ?? createDevtoolsRecorder(this.#sources)
  }

  #stop(): void {
    if (this.#recorder !== this.#given) this.#recorder?.stop()
    this.#recorder = undefined
    if (this.#panel) {
      this.#panel.destroy()
      this.#panel.node.remove()
      this.#panel = null
    }
  }

  #renderLauncher(): void {
    this.#label.textContent = this.#strings.launcherLabel
  }

  #emit(type: 'tandem-devtools-open' | 'tandem-devtools-close'): void {
    this.dispatchEvent(new CustomEvent(type, { bubbles: true, composed: true }))
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'tandem-devtools': TandemDevtoolsElement
  }
  interface HTMLElementEventMap {
    /** `<tandem-devtools>` opened its panel. */
    'tandem-devtools-open': CustomEvent<undefined>
    /** `<tandem-devtools>` closed its panel. */
    'tandem-devtools-close': CustomEvent<undefined>
  }
}
