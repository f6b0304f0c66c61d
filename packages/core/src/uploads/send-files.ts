import { UPLOADS } from '@tandem/contract'
import { Upload } from 'tus-js-client'
import { abortError } from '../abort.js'
import { asTandemError } from '../as-tandem-error.js'
import { TandemError } from '../errors.js'
import type { Http } from '../http.js'
import { randomId } from '../random-id.js'
import { sendFile, uploadIdOf, type SendingFile } from './tus-upload.js'
import { checkFiles } from './check-files.js'
import { storeOf } from './uploads-store.js'
import type { FileRequest, FilesContext, FileUpload, MessageUpload } from './types.js'

// A write with files (loaded on the first one): each file uploaded in turn (tus), its progress in
// the client's uploads store, then the write itself with `attachments: [the upload ids]`, once.

const cancelledError = () =>
  new TandemError('The upload was cancelled: its files are deleted and the write is not sent', {
    code: 'upload_cancelled',
  })

/** A saved URL is used only when it is an upload of this endpoint (storage is not trusted). */
const savedUrl = (url: unknown, endpoint: string): string | undefined =>
  typeof url === 'string' && url.startsWith(`${endpoint}/`) && uploadIdOf(url) ? url : undefined

/** A write with `files`: each checked (FileError), uploaded in turn, then the write with their ids. */
export async function sendWithFiles<T>(http: Http, req: FileRequest, context: FilesContext): Promise<T> {
  const files = checkFiles(req.files)
  const { resume, files: _files, signal, ...rest } = req
  if (files.length === 0) return http<T>({ ...rest, signal })
  const key = req.idempotencyKey ?? randomId()
  const store = storeOf(context.slot)
  if (signal?.aborted) throw abortError(signal)
  const urls = files.map((_, i) => savedUrl(resume?.urls[i], context.endpoint))
  let running: SendingFile | undefined
  let phase: 'uploading' | 'sending' | 'cancelled' = 'uploading'
  /** Rejects the wait for the current file (a cancel, the caller's abort). */
  let stop: ((error: TandemError) => void) | undefined
  /** Read through a function: a cancel changes `phase` while the loop awaits. */
  const now = () => phase

  const headers = async (r: { setHeader(name: string, value: string): void }) =>
    r.setHeader('Authorization', `Bearer ${await context.auth.getToken()}`)
  /** Each upload deleted once (tus DELETE), best effort: a failure leaves it to expire (`unattachedTtlMs`). */
  const deleted = new Set<string>()
  const terminate = async (url: string | undefined): Promise<void> => {
    if (url === undefined || deleted.has(url)) return
    deleted.add(url)
    await Upload.terminate(url, { retryDelays: null, onBeforeRequest: headers }).catch(() => {})
  }
  const terminateAll = () => Promise.all(urls.map(terminate))

  async function cancel(): Promise<boolean> {
    if (phase !== 'uploading') return false
    phase = 'cancelled'
    stop?.(cancelledError())
    await running?.abort(false).catch(() => {})
    await terminateAll()
    return true
  }

  const fileAt = (i: number, change: Partial<FileUpload>) =>
    store.update(key, (m) => {
      const list = m.files.map((f, j) => (j === i ? { ...f, ...change } : f))
      return { ...m, files: list, bytesSent: list.reduce((sum, f) => sum + f.bytesSent, 0) }
    })

  const message: MessageUpload = {
    key,
    service: req.service,
    path: req.path,
    status: 'uploading',
    bytesSent: 0,
    bytesTotal: files.reduce((sum, f) => sum + f.size, 0),
    files: files.map(({ name, type, size }) => ({ name, type, size, bytesSent: 0, status: 'waiting' })),
    error: null,
  }
  store.begin(message, cancel)
  const onAbort = () => stop?.(abortError(signal!))
  signal?.addEventListener('abort', onAbort, { once: true })
  try {
    const ids: string[] = []
    for (const [i, file] of files.entries()) {
      if (now() === 'cancelled') throw cancelledError() // between two files: the next never starts
      fileAt(i, { status: 'uploading' })
      const sending = sendFile({
        file,
        field: `files[${i}]`,
        endpoint: context.endpoint,
        chunkSize: UPLOADS.chunkBytes,
        auth: context.auth,
        limiter: context.limiter,
        uploadUrl: urls[i],
        onUrl(url) {
          urls[i] = url
          // Made after a cancel (its creation was on its way): deleted too.
          if (now() === 'cancelled') void terminate(url)
          else void resume?.save(i, url).catch(() => {})
        },
        onProgress: (sent) => fileAt(i, { bytesSent: sent }),
      })
      running = sending
      const id = await new Promise<string>((resolve, reject) => {
        stop = reject
        if (now() === 'cancelled') reject(cancelledError())
        else if (signal?.aborted) reject(abortError(signal))
        sending.done.then(resolve, reject)
      })
      ids.push(id)
      fileAt(i, { status: 'done', bytesSent: file.size })
    }
    phase = 'sending'
    store.update(key, (m) => ({ ...m, status: 'sending', error: null }))
    const body = (rest.body ?? {}) as { attachments?: unknown }
    const given = Array.isArray(body.attachments) ? (body.attachments as string[]) : []
    const idempotencyKey = context.idempotency || req.idempotencyKey ? key : undefined
    const result = await http<T>({
      ...rest,
      signal,
      idempotencyKey,
      body: { ...body, attachments: [...given, ...ids] },
    })
    store.end(key)
    void resume?.forget().catch(() => {})
    return result
  } catch (thrown) {
    const error = asTandemError(thrown, 'upload_failed', 'An upload failed')
    const cancelled = now() === 'cancelled'
    await running?.abort(false).catch(() => {})
    // While uploading, the caller's abort and a cancel delete the uploads on the service; once the
    // write is on its way, its files may be attached: left alone.
    if (now() !== 'sending' && (cancelled || error.code === 'aborted')) await terminateAll()
    if (resume && !cancelled && resume.retryable(error)) {
      // The outbox sends it again after its backoff; meanwhile a cancel drops it there.
      store.update(key, (m) => ({ ...m, status: 'failed', error }))
      store.onCancel(key, async () => {
        const dropped = await resume.drop(cancelledError())
        if (!dropped) return false // being sent again: that send's own cancel is the one now
        store.end(key)
        await terminateAll()
        await resume.forget().catch(() => {})
        return true
      })
    } else {
      store.end(key)
      void resume?.forget().catch(() => {})
    }
    throw cancelled ? cancelledError() : error
  } finally {
    signal?.removeEventListener('abort', onAbort)
  }
}
