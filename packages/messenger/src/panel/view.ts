// What every view of the panel is, and what they may ask of the panel.
import type { PanelHost } from '../panel-types.js'

export interface View {
  readonly node: HTMLElement
  /** The header's heading while the view is shown (the dialog's name is the messenger's). */
  title(): string
  /** Which tab the view belongs to; a view under one (thread, article) also has `back`. */
  readonly tab: 'conversations' | 'help'
  back?: () => void
  focus(): void
  /** The panel was opened again with this view in it. */
  opened?: () => void
  /** The strings changed. */
  refresh(): void
  destroy(): void
}

export interface PanelContext extends PanelHost {
  showList(): void
  /** A conversation's thread, or (null) the composer of a new one. */
  showThread(id: string | null): void
  showHelp(): void
  showArticle(id: string): void
  /** The view's title changed (its data arrived). */
  retitle(): void
  /** Says `text` through the panel's polite live region. */
  announce(text: string): void
  /** Whether the customer can see the panel now (open, tab visible). */
  visible(): boolean
}
