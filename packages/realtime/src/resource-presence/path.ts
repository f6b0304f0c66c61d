import { PRESENCE_COLLECTIONS, type PresenceCollection } from '@tandem/contract'
import { DEV } from '@tandem/contract/dev'
import { ValidationError } from '../core.js'

/** A JavaScript caller may pass any string: only the contract's collections have resource presence. */
export function checkPath(path: unknown): asserts path is PresenceCollection {
  if (!(PRESENCE_COLLECTIONS as readonly unknown[]).includes(path))
    throw new ValidationError(
      'path',
      DEV && process.env.NODE_ENV !== 'production' && `is one of ${PRESENCE_COLLECTIONS.join(', ')}`,
      PRESENCE_COLLECTIONS.join('|'),
    )
}
