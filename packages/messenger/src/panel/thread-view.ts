// One conversation: its messages (live), the agent's typing, and the composer; or, with no id
// yet, the composer that starts a conversation. Shown means read: the conversation is marked
// read when it opens and whenever an agent's message arrives while the customer can see it.
// An agent's new message is announced through the panel's live region.
import { PAGE_MAX } from '@tandem/contract'
import type { CustomerMessage } from '@tandem/core/messenger'
import { h } from '@tandem/elements'
import { createAttachments, type Attachments } from './attachments.js'
import { createComposer } from './composer.js'
import { uploadsOf } from './upload-progress.js'
import type { PanelContext, View } from './view.js'

export function createThreadView(ctx: PanelContext, id: string | null): View {
  const list = h('ol', { class: 'messages' })
  const typing = h('p', { class: 'typing' })
  const note = h('p', { class: 'note', hidden: '' })
  const conversations = ctx.messenger.conversations
  const composer = createComposer(ctx, {
    draftKey: id ?? 'new',
    uploads: uploadsOf(ctx),
    async send(input, idempotencyKey) {
      if (id !== null) return void (await conversations.reply(id, input, { idempotencyKey }))
      const started = await conversations.start(input, { idempotencyKey })
      // The new conversation's own view takes over; the empty draft of `new` goes with this one.
      ctx.drafts.set('new', '')
      ctx.showThread(started.id)
    },
    ...(id !== null && {
      typing: (on: boolean) => conversations.typing(id, on),
      // A write of this conversation whose files are still going up (sent before a reload, say).
      shows: (path: string) => path.split('/').includes(id),
    }),
  })
  const node = h('div', { class: 'view thread' }, note, list, typing, composer.node)
  // Files dropped anywhere on the view join the message.
  node.addEventListener('dragover', (event) => {
    if (!event.dataTransfer?.types.includes('Files')) return
    event.preventDefault()
    event.dataTransfer.dropEffect = 'copy'
    node.classList.add('dropping')
  })
  node.addEventListener('dragleave', (event) => {
    if (!node.contains(event.relatedTarget as Node | null)) node.classList.remove('dropping')
  })
  node.addEventListener('drop', (event) => {
    node.classList.remove('dropping')
    const files = [...(event.dataTransfer?.files ?? [])]
    if (files.length === 0) return
    event.preventDefault()
    composer.add(files)
  })
  const shown = new Map<string, HTMLLIElement>()
  const files = new Map<string, Attachments>()
  /** The messages read again for fresh signed URLs (the store keeps the first copy of each); one read at a time. */
  let reading: Promise<void> | null = null
  const reread = async () => {
    if (id === null) return
    reading ??= (async () => {
      const pages = conversations.messages(id, { limit: PAGE_MAX }).pages({ maxPages: 10 })
      for await (const page of pages) for (const m of page.data) files.get(m.id)?.update(m.attachments)
    })().finally(() => (reading = null))
    return reading
  }
  let subject = ''
  let off = () => {}
  let render = () => {}
  let markRead = () => {}
  /** False until the first load is on screen, and while rows are rebuilt: nothing is "new" then. */
  let live = false

  const author = (m: CustomerMessage) =>
    m.author.type === 'customer' ? ctx.strings().you : (m.author.name ?? ctx.strings().agent)

  const item = (m: CustomerMessage) => {
    const attached = createAttachments(ctx, m.attachments, reread)
    if (attached) files.set(m.id, attached)
    return h(
      'li',
      { class: m.author.type === 'customer' ? 'msg mine' : 'msg' },
      h('span', { class: 'who' }, author(m)),
      h('span', {}, m.text),
      ...(attached ? [attached.node] : []),
    )
  }
  const dropFiles = () => {
    for (const f of files.values()) f.destroy()
    files.clear()
  }

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
        const files = (arrived.attachments ?? []).map((a) => a.name).join(', ')
        ctx.announce(s.newMessage(author(arrived), arrived.text || files))
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
      dropFiles()
      render()
      live = was
      composer.refresh()
    },
    destroy: () => {
      off()
      dropFiles()
      composer.destroy()
    },
  }
}
