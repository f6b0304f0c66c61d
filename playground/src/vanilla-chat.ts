// The vanilla page's chat, without React: the channel's last page of history, then every live
// message once (createMessageLog), earlier pages on demand with the reader's place kept, and an
// empty state that says so. DOM built with createElement and textContent: messages are user data.
import { createMessageLog, type Message, type Realtime } from '@tandem/realtime'

/** The chat's words, in one place so a page can replace any of them. */
export const VANILLA_CHAT_STRINGS = {
  /** The list's name (a screen reader hears it when the list takes focus). */
  messages: (channel: string) => `Chat log of ${channel}`,
  loading: 'Loading messages…',
  empty: 'No messages yet. Say something to start.',
  loadEarlier: 'Load earlier messages',
  retry: 'Try again',
  failed: (why: string) => `Could not load the messages (${why}).`,
  someone: 'someone',
}

export type VanillaChatStrings = typeof VANILLA_CHAT_STRINGS

/** The most messages the page holds: older ones come back through "Load earlier messages". */
const MAX = 1_000

interface Parts {
  /** The list (`<ol>`), the empty state's paragraph, the status line, the "Load earlier" button. */
  list: HTMLOListElement
  empty: HTMLElement
  status: HTMLElement
  earlier: HTMLButtonElement
}

const textOf = (m: Message, strings: VanillaChatStrings) => {
  const data = m.data as { text?: unknown } | null
  return `${m.clientId ?? strings.someone}: ${typeof data?.text === 'string' ? data.text : JSON.stringify(m.data)}`
}

/** Shows channel `name`'s messages in `parts` until the returned function is called. */
export function showChat(
  rt: Realtime,
  name: string,
  { list, empty, status, earlier }: Parts,
  strings: VanillaChatStrings = VANILLA_CHAT_STRINGS,
): () => void {
  const log = createMessageLog(rt, name, { event: 'message', max: MAX })
  const shown = new Map<string, HTMLLIElement>()
  list.setAttribute('aria-label', strings.messages(name))
  earlier.textContent = strings.loadEarlier

  const item = (m: Message) => {
    const li = document.createElement('li')
    li.dataset.id = m.messageId
    li.dataset.testid = 'message'
    li.dataset.offset = String(m.offset)
    li.textContent = textOf(m, strings)
    li.dir = 'auto'
    return li
  }

  const render = () => {
    const snap = log.getSnapshot()
    const { messages } = snap
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 8
    const before = list.scrollHeight
    const firstBefore = list.firstElementChild
    // Oldest first, each once: drop what the log let go, then put each message where it belongs.
    const ids = new Set(messages.map((m) => m.messageId))
    for (const [id, li] of shown) {
      if (ids.has(id)) continue
      li.remove()
      shown.delete(id)
    }
    let next = list.firstElementChild
    for (const m of messages) {
      const li = shown.get(m.messageId)
      if (li) {
        next = li.nextElementSibling
        continue
      }
      const added = item(m)
      shown.set(m.messageId, added)
      list.insertBefore(added, next)
    }
    // An earlier page went in above: the reader's place stays where it was. New messages at the
    // end follow the reader who was at the end (and the first page shows its newest).
    if (firstBefore && list.firstElementChild !== firstBefore && firstBefore.isConnected)
      list.scrollTop += list.scrollHeight - before
    else if (atBottom || !firstBefore) list.scrollTop = list.scrollHeight

    empty.hidden = !(snap.loaded && messages.length === 0)
    empty.textContent = strings.empty
    list.hidden = messages.length === 0
    earlier.hidden = !snap.hasEarlier
    earlier.disabled = snap.loading
    earlier.textContent = snap.error && !snap.loaded ? strings.retry : strings.loadEarlier
    list.setAttribute('aria-busy', String(snap.loading))
    status.textContent = snap.error ? strings.failed(snap.error.code) : !snap.loaded ? strings.loading : ''
  }

  const onEarlier = () => void log.loadEarlier()
  earlier.addEventListener('click', onEarlier)
  const off = log.subscribe(render)
  render()
  return () => {
    off()
    earlier.removeEventListener('click', onEarlier)
  }
}
