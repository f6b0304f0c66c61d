import type { TandemClient, TandemError } from '@tandem/core'
import type { CachePersister, DurableOutbox, OutboxEntry } from '@tandem/core/persist'
import type { EventLog } from './event-log.js'

/** A held write as the log shows it: what it does, never its body (a reply's text is the user's). */
export function describeEntry(entry: OutboxEntry): string {
  return entry.kind === 'rest'
    ? `${entry.request.method} /${entry.request.service}${entry.request.path}`
    : `publish ${entry.publish.event} on ${entry.publish.channel}`
}

/** "2 min ago", "40 s ago": how old what was restored is. */
const ago = (ms: number) =>
  ms < 90_000 ? `${Math.max(0, Math.round(ms / 1000))} s ago` : `${Math.round(ms / 60_000)} min ago`

const NOTHING = {
  empty: 'nothing saved yet',
  expired: 'what was saved is too old',
  busted: 'what was saved is from another version of the app',
  unreadable: 'what was saved could not be read',
} as const

const failure = (e: TandemError) => `${e.code}${e.status ? ` ${e.status}` : ''}`

/**
 * The saved cache's and the durable outbox's events, in the event log: what a reload restored,
 * writes held while offline and sent again, their outcomes, another tab's updates, and storage
 * that refused (said once, though both the cache and the outbox find out).
 */
export function attachPersistLog(
  log: EventLog,
  client: TandemClient,
  persister: CachePersister,
  outbox: DurableOutbox,
): () => void {
  const add = (text: string) => log.add('persist', text)
  let fellBack = false
  const fallback = () => {
    if (fellBack) return
    fellBack = true
    add('storage full or refused: kept in memory only (lost when the tab closes)')
  }
  const offs = [
    persister.on('restore', ({ entries, reason }) => {
      if (reason !== 'restored') return add(`nothing restored (${reason}): ${NOTHING[reason]}`)
      // The newest restored entry is about when the cache was saved.
      const newest = Math.max(0, ...client.cache.dehydrate().entries.map((e) => e.dataUpdatedAt))
      add(`restored ${entries} saved entries (saved ${ago(Date.now() - newest)}); revalidating them`)
    }),
    persister.on('remote', ({ entries }) => add(`another tab's update: ${entries} entries, no request`)),
    persister.on('fallback', fallback),
    persister.on('cleared', ({ by }) =>
      add(
        by === 'this-tab'
          ? 'logged out: the saved cache and the held writes are wiped, in every tab'
          : 'logged out in another tab: the saved cache and the held writes are wiped; the connection is closed',
      ),
    ),
    outbox.on('fallback', fallback),
    outbox.on('restore', ({ entries }) => add(`${entries.length} writes held from before the reload: sending them`)),
    outbox.on('queued', (entry) => {
      // Online, the request line follows at once; offline, this is all there is to see.
      if (!navigator.onLine) add(`held: ${describeEntry(entry)} (offline)`)
    }),
    outbox.on('retry', ({ entry, error, delayMs }) =>
      add(`held: ${describeEntry(entry)} (${failure(error)}), again in ${(delayMs / 1000).toFixed(1)} s`),
    ),
    outbox.on('replay', (entry) => add(`replaying ${describeEntry(entry)} (attempt ${entry.attempts + 1})`)),
    outbox.on('applied', ({ entry, result }) => {
      // What the service made of it, when it names it (a reply's thread id, a publish's offset).
      const made = (result as { id?: unknown; offset?: unknown } | null | undefined) ?? {}
      const id = typeof made.id === 'string' ? made.id : typeof made.offset === 'number' ? `offset ${made.offset}` : ''
      add(`applied ${describeEntry(entry)}${id ? ` → ${id}` : ''}`)
    }),
    outbox.on('refused', ({ entry, error }) =>
      log.add('error', `refused ${describeEntry(entry)} → ${failure(error)}: ${error.message} (dropped)`, {
        ok: false,
        ...(error.requestId ? { requestId: error.requestId } : {}),
      }),
    ),
    outbox.on('full', (error) => log.add('error', `outbox full: ${error.message}`, { ok: false })),
  ]
  return () => offs.forEach((off) => off())
}
