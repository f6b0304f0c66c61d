// The customer's conversations, live: subject, preview and unread count each, newest first, and
// the button that starts a new one. Rows are kept by id and updated in place, so a push never
// takes focus away from the row the customer is on.
import type { CustomerConversation } from '@tandem/core/messenger'
import { h } from '@tandem/elements'
import { createPushControl } from './push-control.js'
import type { PanelContext, View } from './view.js'

interface Row {
  li: HTMLLIElement
  subject: HTMLElement
  preview: HTMLElement
  count: HTMLElement
}

export function createListView(ctx: PanelContext): View {
  const store = ctx.messenger.conversationList()
  const start = h('button', { type: 'button', class: 'primary' })
  const list = h('ul', { class: 'list' })
  const note = h('p', { class: 'note' })
  const retry = h('button', { type: 'button', class: 'link', hidden: '' })
  const push = createPushControl(ctx)
  const node = h('div', { class: 'view' }, start, push.node, note, retry, list)
  const rows = new Map<string, Row>()

  start.addEventListener('click', () => ctx.showThread(null))
  retry.addEventListener('click', () => void store.refresh().catch(() => {}))

  const row = (c: CustomerConversation): Row => {
    let r = rows.get(c.id)
    if (!r) {
      const subject = h('strong')
      const preview = h('span', { class: 'preview' })
      const count = h('span', { class: 'count' })
      const button = h('button', { type: 'button', class: 'item' }, subject, preview, count)
      button.addEventListener('click', () => ctx.showThread(c.id))
      r = { li: h('li', {}, button), subject, preview, count }
      rows.set(c.id, r)
    }
    const s = ctx.strings()
    r.subject.textContent = c.status === 'closed' ? `${c.subject} (${s.closed})` : c.subject
    r.preview.textContent = c.preview
    r.count.hidden = c.unreadCount === 0
    r.count.textContent = s.unread(c.unreadCount)
    return r
  }

  const render = () => {
    const s = ctx.strings()
    const { status, conversations } = store.getSnapshot()
    start.textContent = s.newConversation
    retry.textContent = s.retry
    retry.hidden = status !== 'error'
    note.textContent =
      status === 'error'
        ? s.loadFailed
        : conversations.length === 0
          ? status === 'ready'
            ? s.noConversations
            : s.loading
          : ''
    note.hidden = note.textContent === ''
    const shown = new Set(conversations.map((c) => c.id))
    for (const [id, r] of rows) {
      if (shown.has(id)) continue
      r.li.remove()
      rows.delete(id)
    }
    // Appending a row that is already in the list moves it: the order follows the store's.
    conversations.forEach((c, i) => {
      const { li } = row(c)
      if (list.children[i] !== li) list.insertBefore(li, list.children[i] ?? null)
    })
  }

  const off = store.subscribe(render)
  render()

  return {
    node,
    tab: 'conversations',
    title: () => ctx.strings().title,
    focus: () => start.focus(),
    refresh() {
      render()
      push.refresh()
    },
    destroy() {
      off()
      push.destroy()
    },
  }
}
