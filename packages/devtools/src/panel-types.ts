// What the element hands the lazily loaded panel, and what the panel gives back: the one seam
// between the launcher's module (loaded with the element) and the panel's (loaded on first open).
import type { DevtoolsStrings } from './strings.js'
import type { DevtoolsActions, DevtoolsRecorder, DevtoolsSources } from './types.js'

export interface PanelHost {
  /** The sources as they were when the panel was made (a change makes a new panel). */
  readonly sources: DevtoolsSources
  /** Recording since the element was connected: the panel shows its history. */
  readonly recorder: DevtoolsRecorder
  /** The actions as they are now (the page may change them while the panel is open). */
  actions: () => DevtoolsActions | undefined
  strings: () => DevtoolsStrings
  /** Closes the devtools (the close button, Escape). */
  close: () => void
}

export interface Panel {
  /** The dialog; the element puts it in its shadow root and hides it when closed. */
  readonly node: HTMLElement
  /** Its stylesheet, which the element adopts into its shadow root beside the launcher's. */
  readonly sheet: CSSStyleSheet
  /** The panel opened: focus moves to the selected tab, and the visible tab renders. */
  opened(): void
  /** The panel was hidden: tabs stop their ticks. */
  closed(): void
  /** The strings or the actions changed: render the words again. */
  refresh(): void
  /** Unsubscribes from every source and forgets what it showed. */
  destroy(): void
}

export type MountPanel = (host: PanelHost) => Panel
