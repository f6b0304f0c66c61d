// What the element hands the lazily loaded panel, and what the panel gives back: the one seam
// between the launcher's module (loaded with the element) and the panel's (loaded on first open).
import type { LauncherPanel } from '@tandem/elements'
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

/** The dialog (LauncherPanel): `opened()` moves focus to the selected tab and renders it; `closed()` stops the tabs' ticks. */
export interface Panel extends LauncherPanel {
  closed(): void
}

export type MountPanel = (host: PanelHost) => Panel
