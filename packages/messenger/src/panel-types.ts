// What the element hands the lazily loaded panel, and what the panel gives back: the one seam
// between the launcher's module (always loaded) and the panel's (loaded on first open).
import type { PushPayloadInput } from '@tandem/contract'
import type { Messenger } from '@tandem/core/messenger'
import type { LauncherPanel } from '@tandem/elements'
import type { Drafts } from './drafts.js'
import type { MessengerStrings } from './strings.js'

/**
 * What the push control reads: `createPush(client, options)` from @tandem/core/push is one (any
 * store of this shape is). A type only, so a page without push pays nothing for it.
 */
export interface MessengerPush {
  getSnapshot(): {
    status: 'unsupported' | 'default' | 'denied' | 'subscribing' | 'subscribed' | 'error'
    reason: string | null
  }
  subscribe(listener: () => void): () => void
  /** Asks permission: called from the control's click (a user gesture). */
  enable(): Promise<unknown>
  disable(): Promise<unknown>
  /**
   * Shows an agent's reply as the page's own notification, only while the tab is hidden (the
   * service pushes nothing to a subject with a tab open), shaped as the service's push would be.
   * When present, the element calls it for each agent's reply; @tandem/core/push's shows only
   * with its `hiddenTab` option on (off by default).
   */
  showIfHidden?(message: PushPayloadInput): Promise<boolean>
}

export interface PanelHost {
  readonly messenger: Messenger
  /** The page's push controller as it is now (null: no control shown). */
  push(): MessengerPush | null
  /** The merged strings as they are now (the page may change them while the panel is open). */
  strings(): MessengerStrings
  readonly drafts: Drafts
  /** Closes the messenger (the panel's close button, Escape). */
  close(): void
}

/** The dialog (LauncherPanel): `opened()` moves focus into it, and a thread in view counts as read. */
export type Panel = LauncherPanel

export type MountPanel = (host: PanelHost) => Panel
