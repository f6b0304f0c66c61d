// Cache: every entry of the client's cache (`cache.inspect()`): its key, status, fresh or stale,
// fetching, observers, live state, and Refetch / Invalidate / Remove (named with the key).
// Read again on every `cache.onChange` and on a tick while shown (an observer count changes
// without an event). Rows are kept by key and updated in place: a button keeps focus.
import { getCache, liveChannelName, type CacheEntryInfo } from '@tandem/core/cache'
import { redact } from '@tandem/core/internal'
import { DEFAULTS } from '../defaults.js'
import { h } from '@tandem/elements'
import { createKeyedList, type Row } from './keyed-list.js'
import { setText, ticker, whileShown, type PanelContext, type View } from './view.js'

interface Shown {
  info: CacheEntryInfo
  /** The entry's channel is subscribed on the realtime connection. */
  subscribed: boolean
}

export function createCacheView(ctx: PanelContext): View {
  const { client, realtime } = ctx.sources
  const note = h('p', { class: 'note' })
  const list = h('ul', { class: 'rows' })
  const node = h('div', { class: 'view' }, note, list)
  const rows = createKeyedList<Shown, string>(
    list,
    (e) => e.info.hash,
    () => entryRow(ctx, () => render(false)),
  )
  const cache = client && getCache(client)
  let queued = false

  function render(_force: boolean): void {
    const s = ctx.strings()
    if (!cache) return setText(note, s.missing('client'))
    const live = new Set((realtime?.channels() ?? []).filter((c) => c.state === 'subscribed').map((c) => c.name))
    const entries = cache.inspect()
    setText(note, entries.length === 0 ? s.noEntries : '')
    note.hidden = entries.length > 0
    // inspect() makes new objects each time: every row updates (in place, and only text that changed).
    rows.render(
      entries.map((info) => ({
        info,
        subscribed: info.query.key === undefined && live.has(liveChannelName(info.query)),
      })),
      true,
    )
  }

  // A burst of changes (a list and its items) is one read of the cache.
  const schedule = () => {
    if (queued) return
    queued = true
    queueMicrotask(() => {
      queued = false
      render(false)
    })
  }
  const tick = ticker(DEFAULTS.tickMs, () => render(false))
  return { node, ...whileShown(() => cache?.onChange(schedule) ?? (() => {}), render, tick) }
}

function entryRow(ctx: PanelContext, rerender: () => void): Row<Shown> {
  const key = h('code', { class: 'key' })
  const meta = h('p', { class: 'meta' })
  const error = h('p', { class: 'error' })
  let current: CacheEntryInfo | undefined
  const act = (name: 'refetch' | 'invalidate' | 'remove') => {
    const info = current
    if (!info) return
    const s = ctx.strings()
    const fail = (e: unknown) => ctx.announce(s.failed(s[name], redact(e instanceof Error ? e.message : String(e))))
    try {
      if (name === 'remove') {
        info.remove()
        rerender()
      } else void info[name]().then(rerender, fail)
    } catch (e) {
      fail(e)
    }
  }
  const buttons = (['refetch', 'invalidate', 'remove'] as const).map((name) => {
    const button = h('button', { type: 'button' })
    button.addEventListener('click', () => act(name))
    return [name, button] as const
  })
  const node = h('li', { class: 'row' }, key, meta, error, h('div', { class: 'buttons' }, ...buttons.map(([, b]) => b)))
  return {
    node,
    update({ info, subscribed }) {
      current = info
      const s = ctx.strings()
      const name = redact(info.hash)
      setText(key, name)
      const liveState = info.liveError
        ? s.notLive(redact(info.liveError.message))
        : subscribed && info.observers > 0
          ? s.live
          : ''
      const parts = [
        info.status,
        info.isStale ? s.stale : s.fresh,
        info.isFetching ? s.fetching : '',
        s.observers(info.observers),
        liveState,
      ]
      setText(meta, parts.filter(Boolean).join(' · '))
      setText(error, info.error ? s.entryError(redact(info.error.message)) : '')
      error.hidden = !info.error
      for (const [action, button] of buttons) {
        setText(button, s[action])
        const label = s.entryAction(s[action], name)
        if (button.getAttribute('aria-label') !== label) button.setAttribute('aria-label', label)
      }
    },
  }
}
