// @tandem/messenger: the drop-in support messenger. The launcher is in this entry; the panel is
// a module of its own that the element imports on first open.
export { defineMessenger } from './define.js'
export { TandemMessengerElement } from './element.js'
export type { MessengerPush } from './panel-types.js'
export { DEFAULT_STRINGS, type MessengerStrings } from './strings.js'

declare global {
  interface HTMLElementTagNameMap {
    'tandem-messenger': import('./element.js').TandemMessengerElement
  }
  interface HTMLElementEventMap {
    /** `<tandem-messenger>` opened. */
    'tandem-open': CustomEvent<undefined>
    /** `<tandem-messenger>` closed. */
    'tandem-close': CustomEvent<undefined>
    /** `<tandem-messenger>`'s unread total changed; `detail` is the new total. */
    'tandem-unread': CustomEvent<number>
  }
}
