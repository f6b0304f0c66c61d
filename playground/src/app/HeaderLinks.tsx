import { useRef, type FocusEvent, type KeyboardEvent } from 'react'
import './header.css'

/** The header's secondary links, in one place so an app can replace the words: `strings={{ … }}`. */
export const HEADER_LINK_STRINGS = {
  /** The disclosure's button. */
  more: 'Links',
  vanilla: 'Vanilla page',
  vanillaTitle: 'The same SDK on a page without React or a bundler',
  api: 'API contract',
  apiTitle: "The services' REST contract (OpenAPI 3.1), served by the emulator",
  socket: 'Socket contract',
  socketTitle: "The realtime socket's contract (AsyncAPI 3)",
}

export type HeaderLinkStrings = typeof HEADER_LINK_STRINGS

/**
 * The vanilla page and the two contracts, behind one disclosure: three links beside the status pills
 * broke the header over two lines at 1280 px. A native <details>: Enter or Space opens it, Tab
 * reaches the links; Escape closes it (focus back on its button), and so does focus leaving it.
 */
export function HeaderLinks({ user, strings = HEADER_LINK_STRINGS }: { user: string; strings?: HeaderLinkStrings }) {
  const details = useRef<HTMLDetailsElement>(null)
  const close = (refocus: boolean) => {
    const d = details.current
    if (!d?.open) return
    d.open = false
    if (refocus) d.querySelector('summary')?.focus()
  }
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !details.current?.open) return
    e.stopPropagation()
    close(true)
  }
  const onBlur = (e: FocusEvent) => {
    if (!e.currentTarget.contains(e.relatedTarget)) close(false)
  }
  return (
    <details ref={details} className="header-links small" onKeyDown={onKey} onBlur={onBlur}>
      <summary data-testid="header-links">{strings.more}</summary>
      <ul>
        <li>
          <a href={`/vanilla.html?user=${encodeURIComponent(user)}`} title={strings.vanillaTitle}>
            {strings.vanilla}
          </a>
        </li>
        <li>
          <a href="/openapi.json" title={strings.apiTitle}>
            {strings.api}
          </a>
        </li>
        <li>
          <a href="/asyncapi.json" title={strings.socketTitle}>
            {strings.socket}
          </a>
        </li>
      </ul>
    </details>
  )
}
