import { PAGE_MAX, type CustomerConversation, type CustomerMessage, type CustomerTyping } from '@tandem/contract'
import { LEASE_RELEASE_MS } from '../defaults.js'
import type { TandemError } from '../errors.js'
import { createPool } from '../pool.js'
import type { Unsubscribe } from '../types.js'
import { toTandemError, type StoreDeps } from './conversation-table.js'
import { createLazyStore, notOlder } from './lazy-store.js'
import type { MessengerStatus, ReadStore, ThreadSnapshot } from './types.js'

// One conversation as the customer sees it: its state, its messages oldest first (merged by id,
// so a push and a load that both carry a message show it once) and whether an agent is typing.

export interface ThreadDeps extends StoreDeps {
  typingTimeoutMs: number
  /** The thread started (`true`) or stopped running: only a running thread hears pushes. */
  onRunning: (running: boolean) => void
}

export interface Thread {
  readonly store: ReadStore<ThreadSnapshot> & { refresh: () => Promise<void> }
  applyMessage(message: CustomerMessage): void
  applyConversation(conversation: CustomerConversation): void
  applyTyping(typing: CustomerTyping): void
  resync(): void
  clear(error: TandemError): void
}

/** Oldest first, ties by id: the order the service lists them in. */
const byCreated = (a: CustomerMessage, b: CustomerMessage) =>
  Date.parse(a.createdAt) - Date.parse(b.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

const NOBODY = { typingName: null, agentTyping: false }

export function createThread(id: string, deps: ThreadDeps): Thread {
  const messages = new Map<string, CustomerMessage>()
  let conversation: CustomerConversation | null = null
  let status: MessengerStatus = 'idle'
  let error: TandemError | null = null
  let typing: { typingName: string | null; agentTyping: boolean } = NOBODY
  let typingTimer: ReturnType<typeof setTimeout> | undefined
  let running = false
  let closed = false
  let sorted: readonly CustomerMessage[] = []
  const pool = createPool(LEASE_RELEASE_MS)

  const store = createLazyStore<ThreadSnapshot>({ status, conversation, messages: sorted, error, ...typing }, () =>
    pool.acquire('thread', run),
  )

  const publish = (messagesChanged = false) => {
    if (messagesChanged) sorted = [...messages.values()].sort(byCreated)
    store.set((s) =>
      s.status === status &&
      s.error === error &&
      s.conversation === conversation &&
      s.messages === sorted &&
      s.typingName === typing.typingName &&
      s.agentTyping === typing.agentTyping
        ? s
        : { status, conversation, messages: sorted, error, ...typing },
    )
  }

  const stopTyping = () => {
    clearTimeout(typingTimer)
    typingTimer = undefined
    typing = NOBODY
  }

  /** Adds the messages not shown yet; whether any was. */
  const merge = (list: readonly CustomerMessage[]) => {
    let added = false
    for (const m of list) {
      if (m.conversationId !== id || messages.has(m.id)) continue
      messages.set(m.id, m)
      added = true
    }
    return added
  }

  const setConversation = (c: CustomerConversation) => {
    if (c.id !== id || (conversation && !notOlder(c, conversation))) return false
    conversation = c
    return true
  }

  async function load(): Promise<void> {
    if (closed) return
    if (status !== 'ready') status = 'loading'
    publish()
    const options = { signal: deps.signal }
    // Every page, up to the cap: a chain that goes on (or comes back to a cursor) is an error, and
    // what did load is still shown beside it, as is the conversation when only the messages failed.
    const loaded: CustomerMessage[] = []
    const pages = deps.rest.conversations.messages(id, { limit: PAGE_MAX }, options).pages({ maxPages: deps.maxPages })
    const [c, list] = await Promise.allSettled([
      deps.rest.conversations.get(id, options),
      (async () => {
        for await (const page of pages) loaded.push(...page.data)
      })(),
    ])
    if (closed) return
    if (c.status === 'fulfilled') setConversation(c.value)
    const failed = c.status === 'rejected' ? c : list.status === 'rejected' ? list : undefined
    status = failed ? 'error' : 'ready'
    error = failed ? toTandemError(failed.reason) : null
    if (error) deps.report(error)
    publish(merge(loaded))
  }

  function run(): Unsubscribe {
    if (closed) return () => {}
    running = true
    deps.onRunning(true)
    const release = deps.hold()
    void load()
    return () => {
      running = false
      stopTyping()
      deps.onRunning(false)
      release()
    }
  }

  return {
    store: {
      getSnapshot: store.getSnapshot,
      subscribe: store.subscribe,
      async refresh() {
        deps.alive()
        await load()
      },
    },
    applyMessage(m) {
      if (closed || m.conversationId !== id) return
      // The agent's message is what their typing was for.
      const typed = m.author.type === 'agent' && typing.agentTyping
      if (typed) stopTyping()
      const added = status !== 'idle' && merge([m])
      if (added || typed) publish(added)
    },
    applyConversation(c) {
      if (!closed && status !== 'idle' && setConversation(c)) publish()
    },
    applyTyping(t) {
      if (closed || t.conversationId !== id || !running) return
      stopTyping()
      if (t.typing) {
        typing = { typingName: t.name, agentTyping: true }
        typingTimer = setTimeout(() => {
          stopTyping()
          publish()
        }, deps.typingTimeoutMs)
      }
      publish()
    },
    resync() {
      if (running) void load()
    },
    clear(reason) {
      closed = true
      stopTyping()
      messages.clear()
      sorted = []
      conversation = null
      status = 'error'
      error = reason
      publish()
    },
  }
}
