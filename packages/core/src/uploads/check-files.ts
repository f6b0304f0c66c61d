import { UPLOADS, UPLOAD_NAME_RULE, isUploadMediaType, isUploadName } from '@tandem/contract'
import { DEV } from '@tandem/contract/dev'
import { FileError, ValidationError } from '../errors.js'
import type { StoredFile } from './types.js'

// A write's `files`, checked against the contract before a byte goes (the service checks again):
// the count, each one's size and declared type, and its name (the contract's UPLOAD_NAME: no
// control or bidirectional-override characters, no path). A `File` gives its name and type; a bare
// Blob is named 'file'.

const isBlob = (v: unknown): v is Blob => typeof Blob === 'function' && v instanceof Blob

/** The files of a write, or the `FileError` (`ValidationError` for what is no file at all) it is refused with. */
export function checkFiles(files: unknown): StoredFile[] {
  if (!Array.isArray(files))
    throw new ValidationError('files', DEV && process.env.NODE_ENV !== 'production' && 'must be an array of Blobs')
  if (files.length > UPLOADS.filesPerMessage)
    throw new FileError(
      'too_many_files',
      `files[${UPLOADS.filesPerMessage}]`,
      DEV &&
        process.env.NODE_ENV !== 'production' &&
        `${files.length} files: a message takes at most ${UPLOADS.filesPerMessage}`,
      `${files.length} > ${UPLOADS.filesPerMessage}`,
    )
  return files.map((file: unknown, i) => {
    const field = `files[${i}]`
    if (!isBlob(file))
      throw new ValidationError(field, DEV && process.env.NODE_ENV !== 'production' && 'must be a Blob or a File')
    const named = (file as { name?: unknown }).name
    const name = typeof named === 'string' && named !== '' ? named : 'file'
    const type = file.type.split(';')[0]!.trim().toLowerCase()
    if (file.size > UPLOADS.maxFileBytes)
      throw new FileError(
        'upload_too_large',
        field,
        DEV &&
          process.env.NODE_ENV !== 'production' &&
          `"${name}" is ${file.size} bytes: a file may have at most ${UPLOADS.maxFileBytes}`,
        `${file.size} > ${UPLOADS.maxFileBytes}`,
      )
    if (!isUploadMediaType(type))
      throw new FileError(
        'upload_type_not_allowed',
        field,
        DEV &&
          process.env.NODE_ENV !== 'production' &&
          `"${name}" is of type "${file.type}": the service takes PNG, JPEG, GIF, WebP, PDF and plain text`,
        type || 'no type',
      )
    if (!isUploadName(name))
      throw new ValidationError(field, DEV && process.env.NODE_ENV !== 'production' && `its name ${UPLOAD_NAME_RULE}`)
    return { blob: file, name, type, size: file.size }
  })
}

/** A stored file as read back from storage (a restored entry is not trusted): undefined when it is not one. */
export function isStoredFile(v: unknown): v is StoredFile {
  const f = v as Partial<StoredFile> | null
  return (
    typeof f === 'object' &&
    f !== null &&
    isBlob(f.blob) &&
    isUploadName(f.name) &&
    isUploadMediaType(f.type) &&
    Number.isSafeInteger(f.size) &&
    f.size === f.blob.size &&
    f.size <= UPLOADS.maxFileBytes
  )
}

/** Whether a restored `files` is an array of stored files the contract allows. */
export const isStoredFiles = (v: unknown): v is StoredFile[] =>
  Array.isArray(v) && v.length <= UPLOADS.filesPerMessage && v.every(isStoredFile)
