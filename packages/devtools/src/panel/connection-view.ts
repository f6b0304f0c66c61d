// Connection: the state now and the connection id; the timeline (previous → current, reason,
// retry in, time; realtime errors; this tab's role changes); token refreshes (when, never the
// token); then the frames in and out, each a disclosure with its redacted JSON.
import { redact } from '@tandem/core/internal'
import { h } from '@tandem/elements'
import type { DevtoolsStrings } from '../strings.js'
import type { FrameRow, TimelineRow, TokenRow } from '../types.js'
import { createKeyedList, type Row } from './keyed-list.js'
import { setText, whileShown, type PanelContext, type View } from './view.js'

export function createConnectionView(ctx: PanelContext): View {
  const { realtime } = ctx.sources
  const state = h('dd', {})
  const connectionId = h('dd', {})
  const lastError = h('dd', {})
  const labels = [h('dt', {}), h('dt', {}), h('dt', {})] as const
  const facts = h('dl', { class: 'facts' }, labels[0], state, labels[1], connectionId, labels[2], lastError)
  const headings = { timeline: h('h3', {}), token: h('h3', {}), frames: h('h3', {}) }
  const notes = {
    timeline: h('p', { class: 'note' }),
    token: h('p', { class: 'note' }),
    frames: h('p', { class: 'note' }),
  }
  const lists = {
    timeline: h('ul', { class: 'rows' }),
    token: h('ul', { class: 'rows' }),
    frames: h('ul', { class: 'rows' }),
  }
  const node = h(
    'div',
    { class: 'view' },
    facts,
    headings.timeline,
    notes.timeline,
    lists.timeline,
    headings.token,
    notes.token,
    lists.token,
    headings.frames,
    notes.frames,
    lists.frames,
  )
  const line =
    <T>(text: (s: DevtoolsStrings, item: T) => string) =>
    (): Row<T> => {
      const li = h('li', { class: 'row' })
      return { node: li, update: (item) => setText(li, text(ctx.strings(), item)) }
    }
  const timeline = createKeyedList<TimelineRow, number>(lists.timeline, (r) => r.seq, line(timelineText))
  const tokens = createKeyedList<TokenRow, number>(lists.token, (r) => r.seq, line(tokenText))
  const frames = createKeyedList<FrameRow, number>(
    lists.frames,
    (r) => r.seq,
    () => frameRow(ctx),
  )

  const render = (force: boolean) => {
    const s = ctx.strings()
    const snap = ctx.recorder.getSnapshot()
    setText(labels[0], s.state)
    setText(labels[1], s.connectionId)
    setText(labels[2], s.lastError)
    setText(headings.timeline, s.timeline)
    setText(headings.token, s.token)
    setText(headings.frames, s.frames)
    facts.hidden = !realtime
    if (realtime) {
      setText(state, realtime.state)
      setText(connectionId, realtime.connectionId ?? '–')
      const error = realtime.lastError
      setText(lastError, error ? redact(`${error.code}: ${error.message}`) : '–')
    }
    const none = realtime ? undefined : s.missing('realtime')
    setText(notes.timeline, none ?? (snap.timeline.length === 0 ? s.noTimeline : ''))
    setText(notes.token, ctx.sources.client ? (snap.tokens.length === 0 ? s.noTokens : '') : s.missing('client'))
    setText(
      notes.frames,
      none ??
        (snap.frames.length === 0
          ? s.noFrames
          : snap.frames.length < snap.totals.frames
            ? s.kept(snap.frames.length, snap.totals.frames)
            : ''),
    )
    for (const note of Object.values(notes)) note.hidden = note.textContent === ''
    timeline.render(snap.timeline, force)
    tokens.render(snap.tokens, force)
    frames.render(snap.frames, force)
  }

  return { node, ...whileShown((fn) => ctx.recorder.subscribe(fn), render) }
}

function timelineText(s: DevtoolsStrings, r: TimelineRow): string {
  const at = s.time(r.at)
  if (r.kind === 'start') return `${at} ${s.recordingStarted(r.state, r.connectionId)}`
  if (r.kind === 'role') return `${at} ${s.role(r.role, r.leader)}`
  if (r.kind === 'error') return `${at} ${r.error.code ?? r.error.name}: ${r.error.message}`
  const parts = [
    `${at} ${r.previous} → ${r.current}`,
    r.reason ?? '',
    r.retryInMs !== undefined ? s.retryIn(s.duration(r.retryInMs)) : '',
    r.error ? `${r.error.code ?? r.error.name}: ${r.error.message}` : '',
  ]
  return parts.filter(Boolean).join(' · ')
}

function tokenText(s: DevtoolsStrings, r: TokenRow): string {
  const at = s.time(r.at)
  return r.kind === 'token'
    ? `${at} ${s.tokenArrived(s.duration(r.expiresIn * 1_000))}`
    : `${at} ${s.tokenFailed(`${r.error.code ?? r.error.name}: ${r.error.message}`)}`
}

function frameRow(ctx: PanelContext): Row<FrameRow> {
  const summary = h('summary', {})
  const pre = h('pre', {})
  const cut = h('p', { class: 'note' })
  const node = h('li', { class: 'row frame' }, h('details', {}, summary, pre, cut))
  return {
    node,
    update(f) {
      const s = ctx.strings()
      const parts = [
        f.direction === 'in' ? `↓ ${s.frameIn}` : `↑ ${s.frameOut}`,
        f.type,
        f.channel ?? '',
        s.chars(f.size),
        s.time(f.at),
      ]
      setText(summary, parts.filter(Boolean).join(' · '))
      setText(pre, f.text)
      setText(cut, f.truncated ? s.truncated(f.text.length) : '')
      cut.hidden = !f.truncated
    },
  }
}
