// A progress bar and a Cancel button per message whose files are going up, read from the client's
// uploads store (`uploads(client)` from @tandem/core/uploads, in the panel's module only: the
// closed messenger carries none of it). Rows are kept by the write's key and updated in place, so
// focus stays on a Cancel button while its bar moves; a row that goes (sent, refused, cancelled)
// with focus in it hands focus to the composer's box. A send that failed and waits for the outbox
// to try again keeps its row, says so, and can still be cancelled.
import { uploads, type MessageUpload, type Uploads } from '@tandem/core/uploads'
import { h } from '@tandem/elements'
import type { PanelContext } from './view.js'

export interface UploadProgress {
  readonly node: HTMLElement
  refresh(): void
  destroy(): void
}

interface Row {
  node: HTMLElement
  bar: HTMLProgressElement
  cancel: HTMLButtonElement
  /** Says a failed send waits to be tried again (the outbox's backoff). */
  note: HTMLElement
  status: MessageUpload['status'] | null
}

/** The client's store, or null when its client has none (a hand-made client: no progress shown). */
export function uploadsOf(ctx: PanelContext): Uploads | null {
  try {
    return uploads(ctx.messenger.client)
  } catch {
    return null
  }
}

/** `shows(m)`: whether this view's row list includes `m`; `fallback` takes focus from a row that goes. */
export function createUploadProgress(
  ctx: PanelContext,
  store: Uploads | null,
  shows: (m: MessageUpload) => boolean,
  fallback: () => void,
): UploadProgress {
  const node = h('div', { class: 'sending', hidden: '' })
  const rows = new Map<string, Row>()

  const row = (key: string): Row => {
    let r = rows.get(key)
    if (!r) {
      const bar = h('progress', {})
      const cancel = h('button', { type: 'button', class: 'link' })
      // The promise says whether there was anything to cancel; the send's own failure says the rest.
      cancel.addEventListener('click', () => void store?.cancel(key).catch(() => false))
      const note = h('span', { class: 'note', hidden: '' })
      r = { node: h('div', { class: 'upload' }, bar, note, cancel), bar, cancel, note, status: null }
      rows.set(key, r)
      node.append(r.node)
    }
    return r
  }

  const focused = (el: Element) => el.contains((node.getRootNode() as Document | ShadowRoot).activeElement)

  const render = () => {
    const s = ctx.strings()
    const shown = (store?.getSnapshot().messages ?? []).filter(shows)
    const keys = new Set(shown.map((m) => m.key))
    for (const [key, r] of rows) {
      if (keys.has(key)) continue
      const hadFocus = focused(r.node)
      r.node.remove()
      rows.delete(key)
      if (hadFocus) fallback()
    }
    for (const m of shown) {
      const r = row(m.key)
      r.bar.max = Math.max(m.bytesTotal, 1)
      r.bar.value = m.bytesSent
      r.bar.setAttribute('aria-label', s.sendingFiles)
      r.cancel.textContent = s.cancelSending
      // A failed send waiting for its retry is said (once, and beside its bar), never silent; Cancel drops it.
      const failed = m.status === 'failed'
      r.note.textContent = s.filesWillRetry
      r.note.hidden = !failed
      if (failed && r.status !== 'failed') ctx.announce(s.filesWillRetry)
      r.status = m.status
      // Once every file is up the write itself is on its way: nothing is left to cancel.
      const hide = m.status === 'sending'
      if (hide && !r.cancel.hidden && focused(r.cancel)) fallback()
      r.cancel.hidden = hide
    }
    node.hidden = rows.size === 0
  }

  const off = store?.subscribe(render) ?? (() => {})
  render()
  return { node, refresh: render, destroy: off }
}
