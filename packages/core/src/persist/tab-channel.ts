import type { DehydratedState } from '../cache/types.js'
import { readEntries } from './outbox-entries.js'
import type { BroadcastChannelConstructor, OutboxEntry } from './types.js'
import { isObject } from '@tandem/contract'

// What the tabs of one key say to each other (docs/persist.md, "Tabs agree"), on the platform's
// BroadcastChannel: the tab-sharing transport the realtime connection's tabs also use. Each message
// is checked by `parse` before anything reads it (another version's, or a stranger's, is ignored).

/** A failure as it crosses tabs: what a typed error is rebuilt from. */
export interface WireError {
  name: string
  code: string
  message: string
  status?: number | undefined
  requestId?: string | undefined
}

export type TabMessage =
  /** Cache entries that changed in the sender's cache (checked one by one where they land: saved-entries.ts). */
  | { t: 'entries'; entries: DehydratedState['entries'] }
  /** The stored outbox changed: read it again. `added`: the write just stored (shown before the read). */
  | { t: 'outbox'; added?: OutboxEntry | undefined }
  /** A stored write was settled by the sender. */
  | { t: 'outcome'; id: string; result?: unknown; error?: WireError }
  /** Logout: everything stored for the key is gone. */
  | { t: 'cleared' }

export function parse(data: unknown): TabMessage | undefined {
  if (!isObject(data)) return undefined
  switch (data.t) {
    case 'entries':
      return Array.isArray(data.entries)
        ? { t: 'entries', entries: data.entries as DehydratedState['entries'] }
        : undefined
    case 'outbox':
      return { t: 'outbox', added: readEntries({ v: 1, entries: [data.added] })[0] }
    case 'cleared':
      return { t: 'cleared' }
    case 'outcome': {
      const e = data.error
      if (typeof data.id !== 'string') return undefined
      if (e === undefined) return { t: 'outcome', id: data.id, result: data.result }
      return isObject(e) && typeof e.name === 'string' && typeof e.code === 'string' && typeof e.message === 'string'
        ? { t: 'outcome', id: data.id, error: e as unknown as WireError }
        : undefined
    }
    default:
      return undefined
  }
}

export interface TabChannel {
  post(message: TabMessage): void
  close(): void
}

/** The key's channel, or a silent one where the platform has none. */
export function openTabChannel(
  key: string,
  onMessage: (message: TabMessage) => void,
  Channel: BroadcastChannelConstructor | undefined = (globalThis as { BroadcastChannel?: BroadcastChannelConstructor })
    .BroadcastChannel,
): TabChannel {
  if (!Channel) return { post() {}, close() {} }
  const channel = new Channel(`tandem:persist:${key}`)
  channel.onmessage = (event) => {
    const message = parse(event.data)
    if (message) onMessage(message)
  }
  return {
    post(message) {
      try {
        channel.postMessage(message)
      } catch {
        // Data that cannot be cloned (a class instance) stays in this tab; a caller waiting in another
        // tab still hears that its write was applied.
        if (message.t === 'outcome' && !message.error) channel.postMessage({ t: 'outcome', id: message.id })
      }
    },
    close: () => channel.close(),
  }
}
