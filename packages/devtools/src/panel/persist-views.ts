// Outbox and Saved cache, shown only when the page gives `outbox` / `persister`: the writes
// waiting (id, lane, what, attempts, last failure) with the outbox's status, and the saved
// cache's status and what its restore found. Live from their stores while shown.
import type { CachePersister, DurableOutbox, OutboxEntry } from '@tandem/core/persist'
import { redact } from '@tandem/core/internal'
import { h } from '@tandem/elements'
import { createKeyedList, type Row } from './keyed-list.js'
import { setText, whileShown, type PanelContext, type View } from './view.js'

export function createOutboxView(ctx: PanelContext, outbox: DurableOutbox): View {
  const status = h('p', { class: 'meta' })
  const note = h('p', { class: 'note' })
  const list = h('ul', { class: 'rows' })
  const node = h('div', { class: 'view' }, status, note, list)
  const rows = createKeyedList<OutboxEntry, string>(
    list,
    (e) => e.id,
    () => entryRow(ctx),
  )
  const render = (force: boolean) => {
    const s = ctx.strings()
    const snap = outbox.getSnapshot()
    setText(status, s.outboxStatus(snap.status, snap.mode))
    setText(note, snap.entries.length === 0 ? s.nothingHeld : '')
    note.hidden = snap.entries.length > 0
    rows.render(snap.entries, force)
  }
  return { node, ...whileShown((fn) => outbox.subscribe(fn), render) }
}

function entryRow(ctx: PanelContext): Row<OutboxEntry> {
  const what = h('p', { class: 'line' })
  const meta = h('p', { class: 'meta' })
  const error = h('p', { class: 'error' })
  const node = h('li', { class: 'row' }, what, meta, error)
  return {
    node,
    update(e) {
      const s = ctx.strings()
      // What the write is, never its body or headers.
      const said =
        e.kind === 'rest'
          ? `${e.request.method} /${e.request.service}${e.request.path}`
          : `publish ${e.publish.channel} ${e.publish.event}`
      setText(what, redact(said))
      setText(meta, redact(`${e.id} · ${s.lane} ${e.lane} · ${s.attempts(e.attempts)}`))
      const failure = e.lastError ? s.lastFailure(redact(`${e.lastError.code}: ${e.lastError.message}`)) : ''
      setText(error, failure)
      error.hidden = !failure
    },
  }
}

export function createSavedCacheView(ctx: PanelContext, persister: CachePersister): View {
  const status = h('p', { class: 'meta' })
  const restore = h('p', { class: 'meta' })
  const node = h('div', { class: 'view' }, status, restore)
  const render = () => {
    const s = ctx.strings()
    const snap = persister.getSnapshot()
    setText(status, s.persisterStatus(snap.status, snap.mode))
    setText(restore, snap.restore ? s.restored(snap.restore.reason, snap.restore.entries) : '')
    restore.hidden = !snap.restore
  }
  return { node, ...whileShown((fn) => persister.subscribe(fn), render) }
}
