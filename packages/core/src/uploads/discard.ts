import type { FilesContext } from './types.js'
import { storeOf } from './uploads-store.js'
import { savedUploadUrl, terminateUpload } from './upload-url.js'

// A held write with files that the app removed from the durable outbox (`outbox.remove(id)`): its
// progress row ends and its uploads are deleted on the service (they count against the quota).
// Loaded only then (it needs none of tus).

export async function discardUploads(context: FilesContext, key: string, urls: readonly unknown[]): Promise<void> {
  storeOf(context.slot).end(key)
  const held = new Set(urls.map((u) => savedUploadUrl(u, context.endpoint)).filter((u) => u !== undefined))
  await Promise.all([...held].map((url) => terminateUpload(url, context)))
}
