import { asTandemError } from '../as-tandem-error.js'
import { PAGE_MAX, type CustomerConversation } from '@tandem/contract'
import { LEASE_RELEASE_MS } from '../defaults.js'
import type { TandemError } from '../errors.js'
import { createPool } from '../pool.js'
import type { Unsubscribe } from '../types.js'
import { createLazyStore, notOlder, sameFields } from './lazy-store.js'
import type { MessengerRest } from './rest.js'
import type { ConversationListSnapshot, MessengerStatus, ReadStore, UnreadSnapshot } from './types.js'

// The customer's conversations, once, behind two stores: the list (most recently modified
// first) and the unread counts. Each `conversation` push replaces its row, so a read in one tab
// reaches every tab; a load merges into what pushes brought meanwhile instead of erasing it.

export interface StoreDeps {
  rest: MessengerRest
  /** Holds the customer channel while a store runs. */
  hold: () => Unsubscribe
  signal: AbortSignal
  report: (error: TandemError) => void
  /** Throws the shut-down error once the messenger is shut down. */
  alive: () => void
  /** The most pages a store reads of one list (`MessengerOptions.maxPages`). */
  maxPages: number
}

export interface ConversationTable {
  readonly unread: ReadStore<UnreadSnapshot>
  readonly list: ReadStore<ConversationListSnapshot> & { refresh: () => Promise<void> }
  /** A conversation's new state: a push (`pushed`), or the answer of the customer's own write. */
  apply(conversation: CustomerConversation, pushed: boolean): void
  /** Fetches again what the stores show, when they run. */
  resync(): void
  /** Forgets everything; the stores say `error` from now on. */
  clear(error: TandemError): void
}

const EMPTY_MAP: ReadonlyMap<string, number> = new Map()

/** Most recently modified first, ties by id in the same direction (the service's order). */
const byModified = (a: CustomerConversation, b: CustomerConversation) =>
  Date.parse(b.modifiedAt) - Date.parse(a.modifiedAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)

export const toTandemError = (e: unknown): TandemError => asTandemError(e, 'unknown')

export function createConversationTable(deps: StoreDeps): ConversationTable {
  const rows = new Map<string, CustomerConversation>()
  /** Per id, the push clock when a push last set it: a load that started before it loses a tie to it. */
  const pushedAt = new Map<string, number>()
  let clock = 0
  let status: MessengerStatus = 'idle'
  let error: TandemError | null = null
  let running = false
  let closed = false
  const pool = createPool(LEASE_RELEASE_MS)

  const list = createLazyStore<ConversationListSnapshot>({ status, conversations: [], error }, () =>
    pool.acquire('table', run),
  )
  const unread = createLazyStore<UnreadSnapshot>({ status, total: 0, byConversation: EMPTY_MAP, error }, () =>
    pool.acquire('table', run),
  )

  /** New snapshots, each the same object as before when nothing it shows changed. */
  const publish = () => {
    const sorted = [...rows.values()].sort(byModified)
    list.set((s) =>
      // Arrays compare as records of their indices: the same rows in the same order keep the snapshot.
      s.status === status && s.error === error && sameFields(s.conversations, sorted)
        ? s
        : { status, conversations: sorted, error },
    )
    const counts = new Map(sorted.map((c) => [c.id, c.unreadCount]))
    const total = sorted.reduce((n, c) => n + c.unreadCount, 0)
    unread.set((s) =>
      s.status === status &&
      s.error === error &&
      s.total === total &&
      s.byConversation.size === counts.size &&
      [...counts].every(([id, n]) => s.byConversation.get(id) === n)
        ? s
        : { status, total, byConversation: counts, error },
    )
  }

  const put = (c: CustomerConversation) => {
    const current = rows.get(c.id)
    if (!current || !sameFields(current, c)) rows.set(c.id, c)
  }

  async function load(): Promise<void> {
    if (closed) return
    const since = clock
    if (status !== 'ready') status = 'loading'
    publish()
    // Every page, up to the cap; on an error, the pages that did load are shown beside it.
    const answer: CustomerConversation[] = []
    let failure: TandemError | null = null
    try {
      const list = deps.rest.conversations.list({ limit: PAGE_MAX }, { signal: deps.signal })
      for await (const page of list.pages({ maxPages: deps.maxPages })) answer.push(...page.data)
    } catch (e) {
      failure = toTandemError(e)
    }
    if (closed) return
    for (const c of answer) {
      const current = rows.get(c.id)
      const pushedSince = (pushedAt.get(c.id) ?? -1) > since
      if (!current || (notOlder(c, current) && !(pushedSince && c.modifiedAt === current.modifiedAt))) put(c)
    }
    status = failure ? 'error' : 'ready'
    error = failure
    if (failure) deps.report(failure)
    publish()
  }

  function run(): Unsubscribe {
    if (closed) return () => {}
    running = true
    const release = deps.hold()
    void load()
    return () => {
      running = false
      release()
    }
  }

  return {
    unread,
    list: {
      getSnapshot: list.getSnapshot,
      subscribe: list.subscribe,
      async refresh() {
        deps.alive()
        await load()
      },
    },
    apply(c, pushed) {
      if (closed || status === 'idle') return // nothing shown yet: the first load brings it
      if (pushed) pushedAt.set(c.id, ++clock)
      const current = rows.get(c.id)
      if (current && !notOlder(c, current)) return
      put(c)
      publish()
    },
    resync() {
      if (running) void load()
    },
    clear(reason) {
      closed = true
      rows.clear()
      pushedAt.clear()
      status = 'error'
      error = reason
      publish()
    },
  }
}
