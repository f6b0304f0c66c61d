import type { RequestClient } from '@tandem/core'
import { uploads, type UploadsSnapshot } from '@tandem/core/uploads'
import { DEV } from '@tandem/contract/dev'
import { TandemError } from '@tandem/core'
import { useContext, useMemo, useSyncExternalStore } from 'react'
import { TandemContext } from './use-tandem.js'

export interface UseUploadsResult extends UploadsSnapshot {
  /** Stops the write with this key (its files deleted on the service); false when it could not. */
  cancel: (key: string) => Promise<boolean>
}

/**
 * The client's writes with files as they go (`uploads(client)` of @tandem/core/uploads): bytes
 * per file and per message, and `cancel(key)`. The client given, else the `<TandemProvider>`'s.
 *
 * @example
 * ```tsx
 * const { messages, cancel } = useUploads()
 * return messages.map((m) => (
 *   <p key={m.key}>
 *     <progress value={m.bytesSent} max={m.bytesTotal} /> <button onClick={() => cancel(m.key)}>Cancel</button>
 *   </p>
 * ))
 * ```
 */
export function useUploads(client?: RequestClient): UseUploadsResult {
  const context = useContext(TandemContext)
  const given = client ?? context?.client
  if (!given)
    throw new TandemError(
      DEV && process.env.NODE_ENV !== 'production'
        ? 'useUploads: pass a client, or wrap your app in <TandemProvider client={createClient(…)}>'
        : 'useUploads: no_provider',
      { code: 'no_provider' },
    )
  const store = useMemo(() => uploads(given), [given])
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot)
  return useMemo(() => ({ ...snapshot, cancel: store.cancel }), [snapshot, store])
}
