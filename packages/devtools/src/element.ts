// <tandem-devtools>: the launcher and the recorder, always; the panel (its tabs and views) is a
// module of its own, imported on first open (or when the pointer or focus reaches the launcher).
// The recorder starts when the element is connected with its sources, so the panel opened later
// shows what happened before; one given (`recorder`, made by the app before this module loaded)
// reaches back further, and stays the app's: the element shows it, never stops it.
import type { Client } from '@tandem/core'
import type { CachePersister, DurableOutbox } from '@tandem/core/persist'
import { LauncherElement, once } from '@tandem/elements'
import { launcherSheet } from './launcher-styles.js'
import { goOnline, isForcedOffline } from './offline.js'
import type { MountPanel, Panel } from './panel-types.js'
import { createDevtoolsRecorder } from './recorder.js'
import { DEFAULT_STRINGS, type DevtoolsStrings } from './strings.js'
import type { Realtime } from '@tandem/realtime'
import type { DevtoolsActions, DevtoolsRecorder, DevtoolsSources, DevtoolsTabs } from './types.js'

const loadPanel = once(() => import('./panel/index.js').then((m) => m.mountPanel))

export class TandemDevtoolsElement extends LauncherElement<DevtoolsStrings, MountPanel> {
  #sources: DevtoolsSources = {}
  #actions: DevtoolsActions | undefined
  #recorder: DevtoolsRecorder | undefined
  /** The app's recorder, if it gave one: used instead of one of the element's own, never stopped here. */
  #given: DevtoolsRecorder | undefined
  #restartQueued = false

  constructor() {
    super({
      icon: 'M3 12h4l3-8 4 16 3-8h4', // a pulse: what goes on underneath
      sheet: launcherSheet,
      strings: DEFAULT_STRINGS,
      load: loadPanel,
      events: ['tandem-devtools-open', 'tandem-devtools-close'],
    })
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
    this.refresh()
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

  connectedCallback(): void {
    this.#start()
  }

  disconnectedCallback(): void {
    this.#stop()
    // Not close(): no close event, and focus cannot be inside a disconnected element.
    this.forget()
    this.hide()
    // The page must not stay "offline" because its devtools went away.
    if (isForcedOffline()) goOnline()
  }

  protected opening(): (mount: MountPanel) => Panel | null {
    // Disconnected while the panel loaded: no panel (and no recorder) for a detached element.
    return (mount) => {
      if (!this.isConnected) return null
      this.#start()
      const recorder = this.#recorder
      return recorder
        ? mount({
            sources: this.#sources,
            recorder,
            actions: () => this.#actions,
            strings: () => this.strings,
            close: () => this.close(),
          })
        : null
    }
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
      const wasOpen = this.forget()
      this.#stop()
      this.#start()
      if (wasOpen) void this.open().catch(() => {})
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
    this.dropPanel()
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
