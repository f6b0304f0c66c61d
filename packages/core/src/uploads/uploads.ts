import { DEV } from '@tandem/contract/dev'
import type { RequestClient } from '../client-request.js'
import { ValidationError } from '../errors.js'
import { storeOf } from './uploads-store.js'
import type { Uploads } from './types.js'

/**
 * The client's writes with files as they go (`@tandem/core/uploads`): bytes sent per file and per
 * message, for `useSyncExternalStore`, and `cancel(key)`.
 *
 * @example
 * ```ts
 * const progress = uploads(client)
 * progress.subscribe(() => {
 *   for (const m of progress.getSnapshot().messages) console.log(m.key, m.bytesSent, '/', m.bytesTotal)
 * })
 * await support(client).conversations.reply('cnv_1', { text: 'The invoice', files: [pdf] })
 * ```
 */
export function uploads(client: RequestClient): Uploads {
  const slot = (client as Partial<RequestClient> | null | undefined)?.uploadsSlot
  if (typeof slot !== 'object' || slot === null)
    throw new ValidationError(
      'client',
      DEV && process.env.NODE_ENV !== 'production' && 'must be a client from createClient',
    )
  const store = storeOf(slot)
  return { getSnapshot: store.getSnapshot, subscribe: store.subscribe, cancel: store.cancel }
}
