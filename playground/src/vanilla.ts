// The SDK without React: a client, one page of a list at a time, a channel's history and live
// messages (vanilla-chat.ts), publishing.
import { createClient, isTandemError, type Conversation } from '@tandem/core'
import { sessionPositions } from '@tandem/realtime/positions'
import { createRealtime } from '@tandem/realtime'
import { shareAcrossTabs } from '@tandem/realtime/tabs'
import { showUserNotice } from './app/user-notice.js'
import { tabUser } from './lib/session.js'
import { showChat } from './vanilla-chat.js'

const { user, rejected } = tabUser()
showUserNotice(rejected, user)
// Tokens come from our backend (the dev server); the token endpoint makes `user` the subject.
const client = createClient({
  baseUrl: location.origin,
  auth: { url: `/api/tandem-token?user=${encodeURIComponent(user)}` },
})
// The user's tabs share one socket, and a reload resumes the channel from the last message this
// tab showed: what came meanwhile arrives, once.
const rt = createRealtime(
  { client },
  { tabs: shareAcrossTabs({ key: `user:${user}` }), positions: sessionPositions({ key: `tandem:realtime:${user}` }) },
)

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T
const describe = (e: unknown) =>
  isTandemError(e) ? `${e.code}: ${e.message}${e.requestId ? ` (${e.requestId})` : ''}` : String(e)
$('user').textContent = user
$<HTMLAnchorElement>('back').href = `/?user=${encodeURIComponent(user)}`

// ---- Support: one page at a time, following nextCursor ----
let cursor: string | undefined
let shown = 0
async function loadConversations(): Promise<void> {
  const more = $<HTMLButtonElement>('more')
  more.disabled = true
  try {
    const page = await client.support.conversations.list({ limit: 10, ...(cursor ? { cursor } : {}) })
    $('conversations').append(...page.data.map(conversationItem))
    shown += page.data.length
    cursor = page.nextCursor ?? undefined
    more.hidden = !cursor
    $('conv-status').textContent = `${shown} conversations shown${cursor ? '' : ' (all)'}`
  } catch (e) {
    $('conv-status').textContent = describe(e)
    $('conv-status').className = 'error small'
  } finally {
    more.disabled = false
  }
}
function conversationItem(c: Conversation): HTMLLIElement {
  const li = document.createElement('li')
  li.dataset.id = c.id
  li.dataset.testid = 'conversation'
  const subject = document.createElement('strong')
  subject.textContent = c.subject // textContent, never innerHTML: this is user data
  subject.dir = 'auto' // a right-to-left subject reads as its own script wants
  const meta = document.createElement('span')
  meta.className = 'muted small'
  meta.textContent = `#${c.number} · ${c.status} · ${c.customer.name ?? c.customer.email}`
  li.append(subject, meta)
  return li
}
$('more').addEventListener('click', () => void loadConversations())
void loadConversations()

// ---- Realtime: the last page of history, then live; publish ----
const name = new URL(location.href).searchParams.get('channel') ?? 'chat:lobby'
$('channel-name').textContent = name
const channel = rt.channel(name)
showChat(rt, name, {
  list: $<HTMLOListElement>('messages'),
  empty: $('chat-empty'),
  status: $('chat-loading'),
  earlier: $<HTMLButtonElement>('earlier'),
})
channel.on('discontinuity', (d) => ($('chat-status').textContent = `Some messages were lost (${d.reason}).`))
rt.on('state', ({ current }) => {
  const el = $('state')
  el.textContent = current
  el.dataset.state = current
})

$<HTMLFormElement>('publish').addEventListener('submit', async (e) => {
  e.preventDefault()
  const input = $<HTMLInputElement>('text')
  const text = input.value.trim()
  if (!text) return
  input.value = ''
  try {
    const ack = await channel.publish('message', { text })
    $('chat-status').textContent = `Stored at offset ${ack.offset}.`
  } catch (err) {
    $('chat-status').textContent = describe(err)
  }
})
