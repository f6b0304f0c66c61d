import type { Http } from './http.js'
import type { DiscardFiles } from './outbox-link.js'
import type { RequestOptions } from './types.js'
import type { FilesContext } from './uploads/types.js'

// The client's seam for writes with `files`: the uploader is loaded by a dynamic import (it checks
// the files first, before a byte goes), so an app that never sends a file ships none of it
// (tus-js-client, the checks, the progress store).

export function withFiles(http: Http, context: FilesContext): Http {
  return <T>(req: RequestOptions) =>
    req?.files === undefined
      ? http<T>(req)
      : import('./uploads/send-files.js').then((uploader) => uploader.sendWithFiles<T>(http, req, context))
}

/** How a durable outbox ends the uploads of a held write it dropped (loaded only then). */
export const discardFiles =
  (context: FilesContext): DiscardFiles =>
  (key, urls) =>
    import('./uploads/discard.js').then((d) => d.discardUploads(context, key, urls))
