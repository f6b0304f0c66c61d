import { PAGE_MAX } from '@tandem/contract'
import type { ListData, Thread } from '@tandem/core'
import type { OutboxEntry } from '@tandem/core/persist'
import { useOutbox } from '@tandem/react/persist'
import { useEffect, useMemo } from 'react'
import { useSession } from '../lib/session-context.js'

/** The threads list the conversation view watches (one page: the service's largest). */
export const THREAD_PARAMS = { limit: PAGE_MAX }

/** A reply not applied yet: shown under the threads, marked "sending…". */
export interface HeldReply {
  /** The outbox entry's id. */
  id: string
  /** Its idempotency key: the key of its uploads' progress (`useUploads`). */
  key: string
  text: string
  /** The files it sends (stored with the entry: they survive a reload too). */
  files: HeldFile[]
  createdAt: number
  /** Why its last attempt failed (it goes again), when one did. */
  lastError?: string
}

/** A held reply's file, as the outbox stored it. */
export interface HeldFile {
  name: string
  size: number
}

const NO_FILES: HeldFile[] = []

/** The names and sizes of an entry's stored files (read as anything restored is: checked, not trusted). */
function heldFiles(entry: OutboxEntry): HeldFile[] {
  const files: unknown = 'files' in entry ? entry.files : undefined
  // One empty list for every reply without files: the memoised rows keep their props.
  if (!Array.isArray(files) || !files.length) return NO_FILES
  return files.flatMap((f: unknown) =>
    typeof f === 'object' && f !== null && 'name' in f && 'size' in f
      ? typeof f.name === 'string' && typeof f.size === 'number'
        ? [{ name: f.name, size: f.size }]
        : []
      : [],
  )
}

const replyPath = (id: string) => `/v1/conversations/${id}/reply`
const isReply = (e: OutboxEntry, path: string): e is Extract<OutboxEntry, { kind: 'rest' }> =>
  e.kind === 'rest' && e.request.service === 'support' && e.request.method === 'POST' && e.request.path === path

/**
 * The replies to conversation `id` waiting in the durable outbox: this tab's, the other tabs' and
 * those stored before a reload, in the order they will be applied. Shown from the outbox, not
 * written into the cache: a refetch while they wait (another reply applied, a live update) then
 * never hides them. Once one is applied here, the service's thread goes into the cached list, so it
 * does not blink out between leaving the outbox and the list's refetch (the other tabs get it too).
 */
export function useHeldReplies(id: string): HeldReply[] {
  const { outbox, client } = useSession()
  const { entries } = useOutbox(outbox)
  const path = replyPath(id)

  useEffect(
    () =>
      outbox.on('applied', ({ entry, result }) => {
        const thread = result as Thread | undefined
        if (!isReply(entry, path) || typeof thread?.id !== 'string') return
        client.cache.setData<Thread>(
          { service: 'support', collection: `conversations/${id}/threads`, params: THREAD_PARAMS },
          (prev: ListData<Thread> | undefined) => {
            const pages = prev?.pages ?? [{ data: [], nextCursor: null }]
            if (pages.some((p) => p.data.some((t) => t.id === thread.id))) return prev!
            const last = pages[pages.length - 1]!
            return { pages: [...pages.slice(0, -1), { ...last, data: [...last.data, thread] }] }
          },
        )
      }),
    [outbox, client, id, path],
  )

  return useMemo(
    () =>
      entries
        .filter((e) => isReply(e, path))
        .map((e) => {
          const body = e.request.body as { text?: unknown } | undefined
          const held: HeldReply = {
            id: e.id,
            key: e.idempotencyKey,
            text: typeof body?.text === 'string' ? body.text : '',
            files: heldFiles(e),
            createdAt: e.createdAt,
          }
          if (e.lastError) held.lastError = e.lastError.code
          return held
        }),
    [entries, path],
  )
}
