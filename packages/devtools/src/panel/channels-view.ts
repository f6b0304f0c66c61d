// Channels: the channels this client holds (`realtime.channels()`): name, state, offset and
// epoch, subscribers, presence members; and this tab's role in the shared connection (leader or
// follower, the leader's id, the key). Read again on each recorded event and on a tick while shown.
import type { ChannelInfo } from '@tandem/realtime'
import { redact } from '@tandem/core/internal'
import { DEFAULTS } from '../defaults.js'
import { h } from '@tandem/elements'
import { createKeyedList, type Row } from './keyed-list.js'
import { setText, ticker, whileShown, type PanelContext, type View } from './view.js'

export function createChannelsView(ctx: PanelContext): View {
  const { realtime, tabs } = ctx.sources
  const tabHeading = h('h3', {})
  const tab = h('p', { class: 'meta' })
  const note = h('p', { class: 'note' })
  const list = h('ul', { class: 'rows' })
  const node = h('div', { class: 'view' }, tabHeading, tab, note, list)
  const rows = createKeyedList<ChannelInfo, string>(
    list,
    (c) => c.name,
    () => channelRow(ctx),
  )

  const render = () => {
    const s = ctx.strings()
    setText(tabHeading, s.thisTab)
    setText(tab, tabs ? s.tabRole(tabs.role, tabs.tabId, tabs.leader, redact(tabs.key)) : s.notShared)
    const channels = realtime?.channels() ?? []
    setText(note, !realtime ? s.missing('realtime') : channels.length === 0 ? s.noChannels : '')
    note.hidden = note.textContent === ''
    // channels() makes new objects each time: every row updates, in place.
    rows.render(channels, true)
  }
  const tick = ticker(DEFAULTS.tickMs, render)
  return { node, ...whileShown((fn) => ctx.recorder.subscribe(fn), render, tick) }
}

function channelRow(ctx: PanelContext): Row<ChannelInfo> {
  const name = h('strong', {})
  const state = h('span', { class: 'outcome' })
  const meta = h('p', { class: 'meta' })
  const presence = h('p', { class: 'meta' })
  const node = h('li', { class: 'row' }, h('p', { class: 'line' }, name, ' ', state), meta, presence)
  return {
    node,
    update(c) {
      const s = ctx.strings()
      setText(name, redact(c.name))
      setText(state, c.state)
      state.className = c.state === 'subscribed' ? 'outcome ok' : c.state === 'failed' ? 'outcome bad' : 'outcome warn'
      const position = c.position ? s.position(c.position.offset, redact(c.position.epoch)) : s.noPosition
      setText(meta, `${position} · ${s.subscribers(c.subscribers)}`)
      setText(
        presence,
        c.presence ? s.presence(redact(c.presence.map((m) => m.clientId).join(', ')) || '–') : s.noPresence,
      )
    },
  }
}
