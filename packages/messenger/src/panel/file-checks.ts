// The contract's file rules as the composer applies them when files are chosen (so a refusal is
// said at once, before a byte goes), and the sentence for a send the SDK or the service refused.
// The limits are @tandem/contract's; the words are the strings table's.
import { isUploadMediaType, UPLOADS } from '@tandem/contract'
import type { MessengerStrings } from '../strings.js'

export interface Checked {
  /** The files that may join the message, in the order given. */
  accepted: File[]
  /** One sentence per refusal (empty: all accepted). */
  refusals: string[]
}

/** Which of `added` may join the `held` files of a message. */
export function checkFiles(held: readonly File[], added: readonly File[], s: MessengerStrings): Checked {
  const accepted: File[] = []
  const refusals: string[] = []
  let tooMany = false
  for (const file of added) {
    if (file.size > UPLOADS.maxFileBytes) refusals.push(s.fileTooBig(file.name, s.fileSize(UPLOADS.maxFileBytes)))
    else if (!isUploadMediaType(file.type)) refusals.push(s.fileWrongType(file.name))
    else if (held.length + accepted.length >= UPLOADS.filesPerMessage) tooMany = true
    else accepted.push(file)
  }
  if (tooMany) refusals.push(s.tooManyFiles(UPLOADS.filesPerMessage))
  return { accepted, refusals }
}

/** The code of a refused send (`TandemError.code`), or null. */
export const codeOf = (error: unknown): string | null => {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : null
}

/**
 * The sentence for a send that failed with `files` on it: a refusal the contract names (the
 * SDK's `FileError` says which file in `details[0].field`, `files[i]`), else "not sent".
 */
export function refusalOf(error: unknown, files: readonly File[], s: MessengerStrings): string {
  const field = (error as { details?: { field?: unknown }[] } | null)?.details?.[0]?.field
  const index = typeof field === 'string' ? /^files\[(\d+)\]$/.exec(field)?.[1] : undefined
  const name = index === undefined ? null : (files[Number(index)]?.name ?? null)
  switch (codeOf(error)) {
    case 'upload_too_large':
      return s.fileTooBig(name, s.fileSize(UPLOADS.maxFileBytes))
    case 'upload_type_not_allowed':
    case 'upload_type_mismatch':
      return s.fileWrongType(name)
    case 'too_many_files':
      return s.tooManyFiles(UPLOADS.filesPerMessage)
    case 'upload_quota_exceeded':
      return s.fileQuota
    case 'upload_cancelled':
      return s.sendCancelled
    default:
      return files.length > 0 ? s.fileFailed : s.sendFailed
  }
}
