// Chosen files checked by the client's own check (`checkFiles` of @tandem/core/uploads: count,
// size, type, name length), so a refusal is said at once, before a byte goes, by the same rules
// the send applies; and the sentence for a send the SDK or the service refused. The rules are
// core's (the contract's); only the words are the messenger's (the strings table).
import { UPLOADS } from '@tandem/contract'
import { checkFiles as check } from '@tandem/core/uploads'
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
    try {
      check([file]) // the file itself first: a wrong one is said as such, even when the message is full
      check([...held, ...accepted, file])
      accepted.push(file)
    } catch (error) {
      if (codeOf(error) === 'too_many_files') tooMany = true
      else refusals.push(refusalOf(error, [file], s))
    }
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
 * The sentence for a check or a send that failed with `files` on it: a refusal the contract names
 * (core's `FileError`, or its `ValidationError` for a name too long, says which file in
 * `details[0].field`, `files[i]`), else "not sent".
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
    case 'validation_error':
      // Of a file the only rule left is its name's length (a File is always a Blob).
      if (index !== undefined) return s.fileNameTooLong(UPLOADS.nameChars)
    // falls through
    default:
      return files.length > 0 ? s.fileFailed : s.sendFailed
  }
}
