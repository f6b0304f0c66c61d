// The tus 1.0.0 endpoint (tus.io; docs/uploads.md): @tus/server with @tus/file-store in a temp
// directory of this emulator, behind the service pipeline (faults, auth, rate limit, request id
// come first: routes.ts). This file is the rules tus leaves to its host: who owns an upload,
// the limits at creation, the type check when the last byte lands, and errors in the service's
// JSON shape. Chunking, offsets and resume are @tus/server's.
import { randomBytes } from 'node:crypto'
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { FileStore } from '@tus/file-store'
import { EVENTS, Server } from '@tus/server'
import { UPLOAD_NAME_RULE, UPLOAD_PATH, UPLOADS, isUploadId, isUploadMediaType, isUploadName } from '@tandem/contract'
import { isCustomer } from '../access.js'
import type { Principal } from '../auth.js'
import { codeForStatus, HttpError } from '../http-errors.js'
import { errorBody, EXPOSED_HEADERS, JSON_TYPE } from '../http-utils.js'
import { checkFile } from './file-check.js'
import { ownerOf, type UploadRegistry } from './registry.js'

export const TUS_PATH = `/support${UPLOAD_PATH}`
const TYPES_TEXT = 'PNG, JPEG, GIF or WebP images, PDF or plain text'
/** The contract's codes for what @tus/server refuses itself (409: an Upload-Offset not the service's). */
const TUS_CODES: Record<number, string> = {
  400: 'invalid_parameter',
  403: 'forbidden',
  404: 'upload_not_found',
  409: 'invalid_parameter',
  412: 'invalid_parameter',
  413: 'upload_too_large',
  415: 'unsupported_media_type',
}

/** Who sent the request tus is handling (set by the route before `handle`, gone when it ends). */
interface Caller {
  principal: Principal
  requestId: string
  /** The upload the route authorised (HEAD, PATCH, DELETE); tus works on this one alone. */
  id?: string
}

/** A refusal thrown from a tus hook: @tus/server answers `status_code` with `body` (its error convention). */
class TusRefusal extends Error {
  constructor(
    readonly status_code: number,
    readonly body: string,
  ) {
    super(body)
  }
}

export interface TusEndpoint {
  /** Hands one request (already authenticated) to @tus/server. */
  handle(req: IncomingMessage, res: ServerResponse, caller: Caller): Promise<void>
  /** The bytes stored for an upload (what has arrived so far). */
  bytes(id: string): Promise<Buffer | undefined>
  offset(id: string): number
  /** A stream of a complete upload's bytes (downloads). */
  file(id: string): Readable
  remove(id: string): Promise<void>
  /** Deletes every file (reset): the next upload starts a new directory. */
  clear(): void
  /** Deletes every file for good (the emulator closed): no request makes a directory again. */
  close(): void
}

/** Counts what each PATCH wrote (a cut connection keeps what arrived: tus ends the write gracefully). */
class CountingStore extends FileStore {
  constructor(
    directory: string,
    private readonly wrote: (id: string, bytes: number) => void,
  ) {
    super({ directory })
  }
  override async write(readable: IncomingMessage | Readable, id: string, offset: number): Promise<number> {
    const end = await super.write(readable, id, offset)
    this.wrote(id, end - offset)
    return end
  }
}

export function createTusEndpoint(registry: UploadRegistry): TusEndpoint {
  const callers = new Map<IncomingMessage, Caller>()
  let live: { dir: string; store: CountingStore; server: Server } | undefined
  let closed = false
  const cleanup = () => {
    if (live) rmSync(live.dir, { recursive: true, force: true })
    live = undefined
  }
  // An emulator nobody closes (createEmulator in a dev server) still leaves no files behind: one
  // listener for the endpoint's life, whatever directory it holds then.
  let exitHook = false

  const refuse = (req: IncomingMessage, status: number, code: string, message: string): TusRefusal =>
    new TusRefusal(status, JSON.stringify(errorBody(callers.get(req)?.requestId ?? '', status, code, message)))

  const options = (store: CountingStore): ConstructorParameters<typeof Server>[0] => ({
    path: TUS_PATH,
    datastore: store,
    // `/support/v1/uploads/<id>`: a proxy or another host in front resolves it against what the client asked.
    relativeLocation: true,
    namingFunction: () => `upl_${randomBytes(12).toString('hex')}`,
    // Never the URL's: the id the route checked the caller owns (tus would take the URL's last segment, query included).
    getFileIdFromRequest: (req) => callers.get(req)?.id,
    onIncomingRequest: (_req, res) => {
      // @tus/server sets its own list; ours (request id, rate limits) must stay readable too.
      res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS)
      return Promise.resolve()
    },
    onUploadCreate: (req, res, upload) => {
      const caller = callers.get(req)
      if (!caller) throw refuse(req, 500, 'internal_error', 'No caller for this upload.')
      const { principal } = caller
      const size = upload.size
      if (size === undefined || upload.sizeIsDeferred)
        throw refuse(req, 400, 'invalid_parameter', 'Upload-Length is required (no deferred length).')
      if (size > UPLOADS.maxFileBytes)
        throw refuse(req, 413, 'upload_too_large', `A file may hold at most ${UPLOADS.maxFileBytes} bytes.`)
      const type = upload.metadata?.filetype
      if (!isUploadMediaType(type))
        throw refuse(
          req,
          415,
          'upload_type_not_allowed',
          `Files may be ${TYPES_TEXT}; not "${String(type).slice(0, 100)}".`,
        )
      const name = upload.metadata?.filename ?? 'file'
      if (!isUploadName(name)) throw refuse(req, 400, 'invalid_parameter', `A filename ${UPLOAD_NAME_RULE}.`)
      const customer = isCustomer(principal)
      const now = Date.now()
      for (const old of registry.expired(now)) void endpoint.remove(old.id)
      if (customer && registry.held(principal.app, principal.subject) + size > UPLOADS.customerQuotaBytes)
        throw refuse(
          req,
          413,
          'upload_quota_exceeded',
          `A customer holds at most ${UPLOADS.customerQuotaBytes} bytes in files.`,
        )
      registry.add({
        id: upload.id,
        app: principal.app,
        owner: ownerOf(principal),
        subject: principal.subject,
        customer,
        name,
        type,
        size,
        complete: false,
        attachedTo: null,
        width: null,
        height: null,
        received: 0,
        checks: 0,
        createdAt: now,
      })
      return Promise.resolve(res)
    },
    onUploadFinish: async (req, res, upload) => {
      const record = registry.get(upload.id)
      // A 0-byte PATCH on a finished upload finishes it "again": its bytes were checked once.
      if (record?.complete) return res
      if (!record) {
        await endpoint.remove(upload.id)
        throw refuse(req, 404, 'upload_not_found', 'No such upload.')
      }
      record.checks++
      const bytes = await endpoint.bytes(upload.id)
      const facts = bytes && (await checkFile(bytes, record.type))
      if (!facts) {
        // Nothing of it is kept: the bytes go, and so does the record (its quota with it).
        await endpoint.remove(upload.id)
        throw refuse(req, 415, 'upload_type_mismatch', `The file's bytes are not ${record.type}.`)
      }
      Object.assign(record, { complete: true, ...facts })
      return res
    },
    onResponseError: (req, res, err) => {
      res.setHeader('Content-Type', JSON_TYPE)
      const given = err as { status_code?: number; body?: string }
      if (typeof given.body === 'string' && given.body.startsWith('{"error"'))
        return { status_code: given.status_code ?? 500, body: given.body }
      const status = given.status_code ?? 500
      // tus's own refusals (a wrong offset, a bad header): its sentence, our shape and codes.
      const code = TUS_CODES[status] ?? codeForStatus(status)
      const message = typeof given.body === 'string' ? given.body.trim() : 'The upload failed.'
      return {
        status_code: status,
        body: JSON.stringify(errorBody(callers.get(req)?.requestId ?? '', status, code, message)),
      }
    },
  })

  const open = () => {
    if (live) return live
    if (closed) throw new HttpError(503, 'service_unavailable', 'The emulator is closed.')
    const dir = mkdtempSync(join(tmpdir(), 'tandem-uploads-'))
    if (!exitHook) process.once('exit', cleanup)
    exitHook = true
    const store = new CountingStore(dir, (id, n) => {
      const record = registry.get(id)
      if (record) record.received += n
    })
    const server = new Server(options(store))
    // A termination (tus DELETE) frees the record, and a customer's quota with it.
    server.on(EVENTS.POST_TERMINATE, (_req, _res, id) => registry.remove(id))
    live = { dir, store, server }
    return live
  }

  const endpoint: TusEndpoint = {
    async handle(req, res, caller) {
      // tus would take a POST with `X-HTTP-Method-Override: DELETE` as a DELETE: the route decided the method.
      delete req.headers['x-http-method-override']
      // tus reads the id from `req.url` (query included, percent-decoded): it sees only the path the route authorised.
      req.url = caller.id === undefined ? TUS_PATH : `${TUS_PATH}/${caller.id}`
      callers.set(req, caller)
      try {
        await open().server.handle(req, res)
      } finally {
        callers.delete(req)
      }
    },
    async bytes(id) {
      if (!live || !isUploadId(id)) return undefined
      return readFile(join(live.dir, id)).catch(() => undefined)
    },
    offset(id) {
      try {
        return live && isUploadId(id) ? statSync(join(live.dir, id)).size : 0
      } catch {
        return 0
      }
    },
    file: (id) => createReadStream(join(open().dir, id)),
    async remove(id) {
      registry.remove(id)
      await live?.store.remove(id).catch(() => undefined)
    },
    clear: cleanup,
    close() {
      closed = true
      cleanup()
      process.off('exit', cleanup)
      exitHook = false
    },
  }
  return endpoint
}
