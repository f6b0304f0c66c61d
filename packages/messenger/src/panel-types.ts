// What the element hands the lazily loaded panel, and what the panel gives back: the one seam
// between the launcher's module (always loaded) and the panel's (loaded on first open).
import type { Messenger } from '@tandem/core/messenger'
import type { Drafts } from './drafts.js'
import type { MessengerStrings } from './strings.js'

export interface PanelHost {
  readonly messenger: Messenger
  /** The merged strings as they are now (the page may change them while the panel is open). */
  strings(): MessengerStrings
  readonly drafts: Drafts
  /** Closes the messenger (the panel's close button, Escape). */
  close(): void
}

export interface Panel {
  /** The dialog; the element puts it in its shadow root and hides it when closed. */
  readonly node: HTMLElement
  /** Its stylesheet, which the element adopts into its shadow root beside the launcher's. */
  readonly sheet: CSSStyleSheet
  /** The panel opened: focus moves into it, and a thread in view counts as read. */
  focus(): void
  /** The strings changed: render the words again. */
  refresh(): void
  /** Unsubscribes from every store and forgets what it showed. */
  destroy(): void
}

export type MountPanel = (host: PanelHost) => Panel
