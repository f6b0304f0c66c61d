// A raw WebSocket peer of the realtime service, for tests that play a hostile (or plain) client
// frame by frame: every frame it receives is kept (in order, with its text), requests are matched
// to replies by id, and every wait has a deadline.
import { WebSocket } from 'ws'
import { slack } from './wait.js'

export type RawFrame = Record<string, unknown> & { type?: string; id?: string | number }

export interface RawSocket {
  readonly ws: WebSocket
  /** Every frame received, oldest first (never emptied: `take` only reads). */
  readonly frames: RawFrame[]
  /** The close code and reason, once closed. */
  readonly closed: { code: number; reason: string } | undefined
  send(frame: RawFrame | string): void
  /** Sends with a fresh id; resolves with the reply echoing it. */
  request(frame: RawFrame, timeoutMs?: number): Promise<RawFrame>
  /** The first frame from `from` on (default 0) matching `match`, waiting for it if need be. */
  take(match: (f: RawFrame) => boolean, timeoutMs?: number, from?: number): Promise<RawFrame>
  /** Resolves once closed; rejects after `timeoutMs`. */
  untilClosed(timeoutMs?: number): Promise<{ code: number; reason: string }>
  close(): void
}

/** Opens `url` (the emulator's `http://…`; the socket path is appended); `onText` sees each frame's text. */
export async function openRaw(url: string, onText?: (text: string) => void): Promise<RawSocket> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/realtime/v1/ws`)
  const frames: RawFrame[] = []
  const wakers = new Set<() => void>()
  let closed: { code: number; reason: string } | undefined
  let nextId = 1
  const wake = () => {
    for (const w of [...wakers]) w()
  }
  ws.on('message', (data) => {
    const text = String(data)
    onText?.(text)
    frames.push(JSON.parse(text) as RawFrame)
    wake()
  })
  ws.on('close', (code, reason) => {
    closed = { code, reason: String(reason) }
    wake()
  })
  ws.on('error', () => {})
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })

  const wait = <T>(found: () => T | undefined, timeoutMs: number, what: string) =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        const value = found()
        if (value !== undefined) return finish(() => resolve(value))
        if (closed) finish(() => reject(new Error(`socket closed (${closed!.code}) while waiting for ${what}`)))
      }
      const timer = setTimeout(() => finish(() => reject(new Error(`no ${what} within ${timeoutMs} ms`))), timeoutMs)
      const finish = (then: () => void) => {
        clearTimeout(timer)
        wakers.delete(check)
        then()
      }
      wakers.add(check)
      check()
    })

  const socket: RawSocket = {
    ws,
    frames,
    get closed() {
      return closed
    },
    send: (frame) => ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame)),
    request(frame, timeoutMs = slack(5_000)) {
      const id = `q${nextId++}`
      const from = frames.length
      socket.send({ ...frame, id })
      return socket.take((f) => f.id === id, timeoutMs, from)
    },
    take: (match, timeoutMs = slack(5_000), from = 0) =>
      wait(() => frames.slice(from).find(match), timeoutMs, 'matching frame'),
    untilClosed: (timeoutMs = slack(5_000)) => wait(() => closed, timeoutMs, 'close'),
    close: () => ws.close(),
  }
  return socket
}

/** Opens and sends `connect`; throws unless the service answers `connected`. */
export async function connectRaw(url: string, token: string, onText?: (text: string) => void): Promise<RawSocket> {
  const socket = await openRaw(url, onText)
  const reply = await socket.request({ type: 'connect', token })
  if (reply.type !== 'connected') throw new Error(`expected connected, got ${JSON.stringify(reply).slice(0, 300)}`)
  return socket
}
