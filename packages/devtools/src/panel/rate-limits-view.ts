// Rate limits: each service's queue now (`watchRateLimit`, through the recorder): how many wait
// and how long the last of them still waits (counting down on the tick), then the last waits.
import { DEFAULTS } from '../defaults.js'
import { h } from '@tandem/elements'
import type { RateLimitRow, RateLimitWaitRow } from '../types.js'
import { createKeyedList, type Row } from './keyed-list.js'
import { setText, ticker, whileShown, type PanelContext, type View } from './view.js'

export function createRateLimitsView(ctx: PanelContext): View {
  const note = h('p', { class: 'note' })
  const queues = h('ul', { class: 'rows' })
  const heading = h('h3', {})
  const waitsNote = h('p', { class: 'note' })
  const waits = h('ul', { class: 'rows' })
  const node = h('div', { class: 'view' }, note, queues, heading, waitsNote, waits)
  const line =
    <T>(text: (item: T) => string) =>
    (): Row<T> => {
      const li = h('li', { class: 'row' })
      return { node: li, update: (item) => setText(li, text(item)) }
    }
  const queueRows = createKeyedList<RateLimitRow, string>(
    queues,
    (r) => r.service,
    line((r) => {
      const s = ctx.strings()
      const whose = r.bucket === 'customer' ? s.customerBucket : ''
      return `${r.service}${whose}: ${r.queued ? s.queue(r.queued, s.duration(Math.max(0, r.until - Date.now()))) : s.noQueue}`
    }),
  )
  const waitRows = createKeyedList<RateLimitWaitRow, number>(
    waits,
    (r) => r.seq,
    line((r) => {
      const s = ctx.strings()
      return `${s.time(r.at)} ${s.waited(r.service, s.duration(r.waitMs), r.reason)}`
    }),
  )

  const render = (force: boolean) => {
    const s = ctx.strings()
    const snap = ctx.recorder.getSnapshot()
    const client = ctx.sources.client
    setText(note, client ? '' : s.missing('client'))
    note.hidden = !!client
    setText(heading, s.lastWaits)
    setText(waitsNote, snap.rateLimitWaits.length === 0 ? s.noWaits : '')
    waitsNote.hidden = snap.rateLimitWaits.length > 0
    // The countdown moves on each tick, not only when the queue changes.
    queueRows.render(client ? snap.rateLimits : [], true)
    waitRows.render(snap.rateLimitWaits, force)
  }
  const tick = ticker(DEFAULTS.tickMs, () => render(false))
  return { node, ...whileShown((fn) => ctx.recorder.subscribe(fn), render, tick) }
}
