import { DEV } from '@tandem/contract/dev'
import { OutboxFullError, ValidationError, type TandemError } from '../errors.js'
import { randomId } from '../random-id.js'
import { describe, toEntry, type NewEntry } from './outbox-entries.js'
import type { OutboxEntry } from './types.js'

/** The bytes of the files held with an entry. */
const fileBytes = (e: OutboxEntry): number =>
  e.kind === 'rest' && e.files ? e.files.reduce((sum, f) => sum + f.size, 0) : 0

/**
 * A new write as the entry the outbox stores, measured as its JSON; refused when it cannot be stored
 * (`ValidationError`) or would not fit beside `held` (`OutboxFullError`, also given to `onFull`).
 */
export function admit(
  fields: NewEntry,
  held: readonly OutboxEntry[],
  { maxEntries, maxBytes, maxFileBytes }: { maxEntries: number; maxBytes: number; maxFileBytes: number },
  onFull: (error: TandemError) => void,
): OutboxEntry {
  // Files are stored as they are (Blobs, structured-cloned by the storage), never as JSON: counted on their own.
  const files = fields.kind === 'rest' ? fields.files : undefined
  let json: string
  try {
    json = JSON.stringify(files ? { ...fields, files: undefined } : fields)
  } catch {
    const field = fields.kind === 'rest' ? 'body' : 'data'
    throw new ValidationError(field, DEV && process.env.NODE_ENV !== 'production' && 'cannot be stored as JSON')
  }
  const bytes = json.length
  // Stored as the JSON it was measured as (plain data, which any storage can clone: a function or a
  // class instance in a body would otherwise fail the write, not the storage), checked as it is read back.
  const entry = toEntry({ ...(JSON.parse(json) as NewEntry), ...(files && { files }) }, bytes, randomId())
  const heldBytes = held.reduce((sum, e) => sum + e.bytes, 0)
  const heldFileBytes = held.reduce((sum, e) => sum + fileBytes(e), 0)
  if (
    held.length >= maxEntries ||
    heldBytes + bytes > maxBytes ||
    (files?.length && heldFileBytes + fileBytes(entry) > maxFileBytes)
  ) {
    const error = new OutboxFullError(
      DEV && process.env.NODE_ENV !== 'production'
        ? `The outbox is full (${held.length} writes, ${heldBytes} bytes, ${heldFileBytes} bytes of files; at most ${maxEntries}, ${maxBytes} and ${maxFileBytes}): ${describe(entry)} was not taken`
        : 'outbox_full',
      {
        code: 'outbox_full',
        details: {
          entries: held.length,
          bytes: heldBytes,
          fileBytes: heldFileBytes,
          maxEntries,
          maxBytes,
          maxFileBytes,
        },
      },
    )
    onFull(error)
    throw error
  }
  return entry
}
