// A real node:http webhook receiver on 127.0.0.1:0 for the webhook tests. It records every
// request (headers, raw body, the status it answered) and lets a test wait on them without
// sleeping.
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { NodeLikeIncomingMessage } from '@tandem/server'

export interface Hit {
  headers: IncomingHttpHeaders
  body: string
  /** Set when the response finished; undefined while pending or if the socket died first. */
  status: number | undefined
  /** True once the connection closed without a response (the sender aborted). */
  aborted: boolean
}

/** Answers a request: the raw body is replayed to `req`, so `toNodeListener` can read it. */
export type ReceiverListener = (req: NodeLikeIncomingMessage, res: ServerResponse, hit: Hit, index: number) => void

export interface Receiver {
  url: string
  hits: Hit[]
  /** Resolves once `check()` holds, re-checked on every request and response; bounded. */
  waitUntil(check: () => boolean, timeoutMs?: number): Promise<void>
  close(): Promise<void>
}

export function answer(status: number): ReceiverListener {
  return (_req, res) => {
    res.statusCode = status
    res.end(status < 300 ? 'ok' : 'nope')
  }
}

export async function startReceiver(listener: ReceiverListener): Promise<Receiver> {
  const hits: Hit[] = []
  const watchers = new Set<() => void>()
  const changed = (): void => {
    for (const watcher of watchers) watcher()
  }

  // A path of its own: a port is reused once closed, and an emulator of another test file (a
  // worker beside this one) may still hold an endpoint registered on that port. Its deliveries
  // name the old path, so they are refused here instead of counted as this test's.
  const path = `/hooks/${randomUUID()}`
  const server = createServer((req, res) => {
    if (req.url !== path) {
      res.statusCode = 410
      return void res.end('not this receiver')
    }
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const hit: Hit = { headers: req.headers, body, status: undefined, aborted: false }
      const index = hits.push(hit) - 1
      res.on('finish', () => {
        hit.status = res.statusCode
        changed()
      })
      res.on('close', () => {
        if (!res.writableFinished) hit.aborted = true
        changed()
      })
      const replay: NodeLikeIncomingMessage = {
        method: req.method,
        url: req.url,
        headers: req.headers,
        async *[Symbol.asyncIterator]() {
          yield Buffer.from(body, 'utf8')
        },
      }
      listener(replay, res, hit, index)
      changed()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`

  return {
    url,
    hits,
    waitUntil(check, timeoutMs = 5_000) {
      if (check()) return Promise.resolve()
      return new Promise((resolve, reject) => {
        const watcher = (): void => {
          if (!check()) return
          clearTimeout(timer)
          watchers.delete(watcher)
          resolve()
        }
        const timer = setTimeout(() => {
          watchers.delete(watcher)
          reject(new Error(`receiver.waitUntil timed out after ${timeoutMs} ms (${hits.length} hits)`))
        }, timeoutMs)
        watchers.add(watcher)
      })
    },
    close() {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}
