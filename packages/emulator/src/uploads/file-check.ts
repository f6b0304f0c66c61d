// What a finished upload holds, read from its bytes (docs/uploads.md, "Limits"): its declared
// type must be what the bytes are (`file-type` reads their signature; plain text is valid UTF-8
// with no NUL that no signature claims), and an image's pixel size comes from its header
// (`image-size`). Anything else is refused 415 `upload_type_mismatch` by the caller.
import { IMAGE_MEDIA_TYPES, type UploadMediaType } from '@tandem/contract'
import { fileTypeFromBuffer } from 'file-type'
import { imageSize } from 'image-size'

export interface FileFacts {
  width: number | null
  height: number | null
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

function isPlainText(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false
  try {
    utf8.decode(bytes)
    return true
  } catch {
    return false
  }
}

/** The file's facts when its bytes are the declared type; undefined when they are not. */
export async function checkFile(bytes: Buffer, declared: UploadMediaType): Promise<FileFacts | undefined> {
  const found = await fileTypeFromBuffer(bytes)
  if (declared === 'text/plain')
    return found === undefined && isPlainText(bytes) ? { width: null, height: null } : undefined
  if (found?.mime !== declared) return undefined
  if (!IMAGE_MEDIA_TYPES.includes(declared)) return { width: null, height: null }
  try {
    const { width, height } = imageSize(bytes)
    return width > 0 && height > 0 ? { width, height } : undefined
  } catch {
    return undefined // a signature with no readable header: not the image it says
  }
}
