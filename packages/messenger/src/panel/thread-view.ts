// One conversation: its messages (live), the agent's typing, and the composer; or, with no id
// yet, the composer that starts a conversation. Shown means read: the conversation is marked
// read when it opens and whenever an agent's message arrives while the customer can see it.
// An agent's new message is announced through the panel's live region.
import type { CustomerMessage } from '@tandem/core/messenger'
import { h } from '@tandem/elements'
import { createComposer } from './composer.js'
import type { PanelContext, View } from './view.js'

export function createThreadView(ctx: PanelContext, id: string | null): View {
  const list = h('ol', { class: 'messages' })
  const typing = h('p', { class: 'typing' })
  const note = h('p', { class: 'note', hidden: '' })
  const composer = createComposer(ctx, id ?? 'new', async (text) => {
    if (id !== null) return void (await ctx.messenger.conversations.reply(id, { text }))
    const started = await ctx.messenger.conversations.start({ text })
    // The new conversation's own view takes over; the empty draft of `new` goes with this one.
    ctx.drafts.set('new', '')
    ctx.showThread(started.id)
  })
  const node = h('div', { class: 'view thread' }, note, list, typing, composer.node)
  const shown = new Map<string, HTMLLIElement>()
  let subject = ''
  let off = () => {}
  let render = () => {}
  let markRead = () => {}
  /** False until the first load is on screen, and while rows are rebuilt: nothing is "new" then. */
  let live = false

  const author = (m: CustomerMessage) =>
    m.author.type === 'customer' ? ctx.strings().you : (m.author.name ?? ctx.strings().agent)

  const item = (m: CustomerMessage) =>
    h(
      'li',
      { class: m.author.type === 'customer' ? 'msg mine' : 'msg' },
      h('span', { class: 'who' }, author(m)),
      h('span', {}, m.text),
    )

  if (id !== null) {
    const store = ctx.messenger.thread(id)
    markRead = () => void ctx.messenger.conversations.markRead(id).catch(() => {})
    render = () => {
      const snap = store.getSnapshot()
      const s = ctx.strings()
      if (snap.conversation && snap.conversation.subject !== subject) {
        subject = snap.conversation.subject
        ctx.retitle()
      }
      note.hidden = snap.status !== 'error' && (snap.status === 'ready' || snap.messages.length > 0)
      note.textContent = snap.status === 'error' ? s.loadFailed : s.loading
      let arrived: CustomerMessage | undefined
      for (const m of snap.messages) {
        if (shown.has(m.id)) continue
        const li = item(m)
        shown.set(m.id, li)
        list.append(li)
        if (live && m.author.type === 'agent') arrived = m
      }
      if (arrived) {
        ctx.announce(s.newMessage(author(arrived), arrived.text))
        if (ctx.visible()) markRead()
        list.lastElementChild?.scrollIntoView({ block: 'end' })
      }
      if (snap.status === 'ready' && !live) {
        live = true
        list.lastElementChild?.scrollIntoView({ block: 'end' })
      }
      typing.textContent = snap.typingName !== null || snap.agentTyping ? s.typing(snap.typingName) : ''
    }
    off = store.subscribe(render)
    render()
    markRead()
  }

  return {
    node,
    tab: 'conversations',
    title: () => (id === null ? ctx.strings().newConversation : subject || ctx.strings().title),
    back: () => ctx.showList(),
    focus: () => composer.focus(),
    opened: () => markRead(),
    refresh: () => {
      // Authors' words ("You", "Support") are in each row: build the rows again, quietly.
      const was = live
      live = false
      list.replaceChildren()
      shown.clear()
      render()
      live = was
      composer.refresh()
    },
    destroy: () => off(),
  }
}
