// Requests: one row per call, newest first: method, /service/path, the outcome (status or error
// code, or "retrying"), the request id, the duration, and, when there were several attempts or
// waits, each attempt's outcome with why it was retried and each rate-limit wait.
import { h } from '@tandem/elements'
import type { RequestRow } from '../types.js'
import { createKeyedList, type Row } from './keyed-list.js'
import { setText, whileShown, type PanelContext, type View } from './view.js'

export function createRequestsView(ctx: PanelContext): View {
  const note = h('p', { class: 'note' })
  const list = h('ul', { class: 'rows' })
  const node = h('div', { class: 'view' }, note, list)
  const rows = createKeyedList<RequestRow, number>(
    list,
    (r) => r.callId,
    () => requestRow(ctx),
  )

  const render = (force: boolean) => {
    const s = ctx.strings()
    const { requests, totals } = ctx.recorder.getSnapshot()
    setText(
      note,
      !ctx.sources.client
        ? s.missing('client')
        : requests.length === 0
          ? s.noRequests
          : requests.length < totals.requests
            ? s.kept(requests.length, totals.requests)
            : '',
    )
    note.hidden = note.textContent === ''
    rows.render(requests, force)
  }

  return { node, ...whileShown((fn) => ctx.recorder.subscribe(fn), render) }
}

function requestRow(ctx: PanelContext): Row<RequestRow> {
  const method = h('strong', { class: 'method' })
  const path = h('span', { class: 'path' })
  const outcome = h('span', { class: 'outcome' })
  const meta = h('p', { class: 'meta' })
  const details = h('ul', { class: 'sub' })
  const node = h('li', { class: 'row' }, h('p', { class: 'line' }, method, ' ', path, ' ', outcome), meta, details)
  return {
    node,
    update(r) {
      const s = ctx.strings()
      setText(method, r.method)
      setText(path, r.path)
      const failed = r.errorCode !== undefined || (r.status !== undefined && r.status >= 400)
      setText(outcome, r.state === 'retrying' ? s.retrying : String(r.status ?? r.errorCode ?? ''))
      outcome.className = r.state === 'retrying' ? 'outcome warn' : failed ? 'outcome bad' : 'outcome ok'
      const parts = [
        r.requestId ? `${s.requestId} ${r.requestId}` : '',
        s.duration(r.durationMs),
        s.attempts(r.attempts.length),
        s.time(r.startedAt),
      ]
      setText(meta, parts.filter(Boolean).join(' · '))
      const lines = [
        ...r.rateLimitWaits.map((w) => s.rateLimitWait(s.duration(w.waitMs), w.reason)),
        ...(r.attempts.length > 1 || r.attempts.some((a) => a.retry)
          ? r.attempts.map((a, i) => {
              const said = s.attempt(i + 1, String(a.status ?? a.errorCode ?? ''), s.duration(a.durationMs))
              return a.retry ? `${said}; ${s.retried(a.retry.reason, s.duration(a.retry.delayMs))}` : said
            })
          : []),
      ]
      details.replaceChildren(...lines.map((line) => h('li', {}, line)))
      details.hidden = lines.length === 0
    },
  }
}
