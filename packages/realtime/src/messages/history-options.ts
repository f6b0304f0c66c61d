import { HISTORY_MAX, HISTORY_MIN } from '@tandem/contract'
import { DEV } from '@tandem/contract/dev'
import { ValidationError } from '../core.js'
import { isSince } from '../connection/protocol.js'
import type { HistoryOptions, RequestOptions } from '../types.js'

/** History options as the service takes them (docs/protocol.md): refused locally, never sent malformed. */
export function checkHistory(
  options: HistoryOptions | null,
): Pick<HistoryOptions, 'since' | 'limit'> & { timing: RequestOptions } {
  const o = options ?? {}
  if (typeof o !== 'object')
    throw new ValidationError('options', DEV && process.env.NODE_ENV !== 'production' && 'must be an object')
  const { since, limit } = o
  if (!(since == null || isSince(since)))
    throw new ValidationError(
      'since',
      DEV && process.env.NODE_ENV !== 'production' && 'must be { epoch: string, offset: integer >= 0 }',
    )
  if (!(limit == null || (Number.isSafeInteger(limit) && limit >= HISTORY_MIN && limit <= HISTORY_MAX)))
    throw new ValidationError(
      'limit',
      DEV && process.env.NODE_ENV !== 'production' && `must be an integer from ${HISTORY_MIN} to ${HISTORY_MAX}`,
    )
  // null is the default; undefined fields are left out of the frame by JSON.
  return { since: since ?? undefined, limit: limit ?? undefined, timing: o }
}
