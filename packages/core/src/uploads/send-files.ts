import { UPLOADS } from '@tandem/contract'
import { DEV } from '@tandem/contract/dev'
import { abortError } from '../abort.js'
import { asTandemError } from '../as-tandem-error.js'
import { FileError, TandemError } from '../errors.js'
import type { Http } from '../http.js'
import { randomId } from '../random-id.js'
import { sendFile, type SendingFile } from './tus-upload.js'
import { checkFiles } from './check-files.js'
import { savedUploadUrl, terminateUpload } from './upload-url.js'
import { storeOf } from './uploads-store.js'
import type { FileRequest, FilesContext, FileUpload, MessageUpload } from './types.js'

// A write with files (loaded on the first one): each file uploaded in turn (tus), its progress in
// the client's uploads store, then the write itself with `attachments: [the upload ids]`, once.

const cancelledError = () =>
  new TandemError('The upload was cancelled: its files are deleted and the write is not sent', {
    code: 'upload_cancelled',
  })

/** Upload ids the caller put in `body.attachments` itself (sent with the new ones). */
const givenIds = (body: unknown): string[] => {
  const given = (body as { attachments?: unknown } | null)?.attachments
  return Array.isArray(given) ? (given as string[]) : []
}

/** A write with `files`: each checked (FileError), uploaded in turn, then the write with their ids. */
export async function sendWithFiles<T>(http: Http, req: FileRequest, context: FilesContext): Promise<T> {
  const files = checkFiles(req.files)
  const { resume, files: _files, signal, ...rest } = req
  if (files.length === 0) return http<T>({ ...rest, signal })
  const given = givenIds(rest.body)
  if (given.length + files.length > UPLOADS.filesPerMessage)
    throw new FileError(
      'too_many_files',
      `files[${UPLOADS.filesPerMessage - given.length}]`,
      DEV &&
        process.env.NODE_ENV !== 'production' &&
        `${given.length} attachments and ${files.length} files: a message takes at most ${UPLOADS.filesPerMessage}`,
      `${given.length + files.length} > ${UPLOADS.filesPerMessage}`,
    )
  const key = req.idempotencyKey ?? randomId()
  const store = storeOf(context.slot)
  if (signal?.aborted) throw abortError(signal)
  const urls = files.map((_, i) => savedUploadUrl(resume?.urls[i], context.endpoint))
  let running: SendingFile | undefined
  let phase: 'uploading' | 'sending' | 'cancelled' = 'uploading'
  /** Rejects the wait for the current file (a cancel, the caller's abort). */
  let stop: ((error: TandemError) => void) | undefined
  /** Read through a function: a cancel changes `phase` while the loop awaits. */
  const now = () => phase

  /** Each upload deleted once (tus DELETE), best effort: a failure leaves it to expire (`unattachedTtlMs`). */
  const deleted = new Set<string>()
  const terminate = async (url: string | undefined): Promise<void> => {
    if (url === undefined || deleted.has(url)) return
    deleted.add(url)
    await terminateUpload(url, context)
  }
  const terminateAll = () => Promise.all(urls.map(terminate))

  async function cancel(): Promise<boolean> {
    if (phase !== 'uploading') return false
    phase = 'cancelled'
    stop?.(cancelledError())
    await running?.abort().catch(() => {})
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
        fetch: context.fetch,
        limiter: context.limiter,
        uploadUrl: urls[i],
        onUrl(url) {
          urls[i] = url
          // Made after a cancel or an abort (its creation was on its way): deleted too.
          if (now() === 'cancelled' || signal?.aborted) void terminate(url)
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
    const body = (rest.body ?? {}) as Record<string, unknown>
    // The outbox ended (a logout) or the caller let go while the last file went: the write is not sent.
    if (signal?.aborted) throw abortError(signal)
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
    await running?.abort().catch(() => {})
    // The outbox stopped (not a logout): what is stored stays for the next page, uploads and saved URLs too.
    if (signal?.aborted && (signal.reason as { code?: unknown } | undefined)?.code === 'outbox_stopped') {
      store.end(key)
      throw error
    }
    // Sent again later only through a durable outbox that still runs (its end aborts `signal`).
    const later = resume !== undefined && !cancelled && !signal?.aborted && resume.retryable(error)
    // Else this write is over: its uploads are deleted (they count against the caller's quota). Once
    // the write is on its way its files may be attached, unless the service answered (a refusal is atomic).
    if (!later && (now() !== 'sending' || error.status !== undefined)) await terminateAll()
    if (later && resume) {
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
