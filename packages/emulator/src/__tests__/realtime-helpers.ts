// A raw `ws` test client for the realtime hub: an inbox of frames and bounded waits (never sleeps).
import { conformFrame } from './conformance.js'
import WebSocket from 'ws'
import type { Emulator } from '../types.js'

/**
 * A server frame as these tests read it: the fields they probe, typed as the tests expect them
 * (a missing one fails the test at the read). Frames become contract types in the contract issue.
 */
export interface Frame {
  type: string
  id?: string | number
  connectionId: string
  epoch: string
  offset: number
  ts: number
  channels: Frame[]
  messages: Frame[]
  missed?: Frame[]
  error: { code: string; message: string; temporary: boolean; retryAfterMs?: number; requestId: string }
  [field: string]: unknown
}

/** What tests send: anything, including frames the hub must refuse. */
export type Outgoing = Record<string, unknown>

export interface Closed {
  code: number
  reason: string
}

export class TestSocket {
  /** Frames not yet taken, oldest first. */
  readonly inbox: Frame[] = []
  readonly closed: Promise<Closed>
  private waiters = new Set<() => void>()
  private nextId = 1
  private closeInfo: Closed | undefined

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Frame
      conformFrame(frame) // checked against the contract's AsyncAPI
      this.inbox.push(frame)
      this.wake()
    })
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.closeInfo = { code, reason: String(reason) }
        resolve(this.closeInfo)
        this.wake()
      })
    })
    ws.on('error', () => {})
  }

  static async open(emu: Emulator, path = '/realtime/v1/ws'): Promise<TestSocket> {
    const ws = new WebSocket(`${emu.url.replace('http', 'ws')}${path}`)
    const socket = new TestSocket(ws)
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve())
      ws.once('error', reject)
    })
    return socket
  }

  /** Opens, sends `connect` and returns the `connected` frame. */
  static async connect(
    emu: Emulator,
    token: string,
    resume?: string,
  ): Promise<{ socket: TestSocket; connected: Frame }> {
    const socket = await TestSocket.open(emu)
    const connected = await socket.request({
      type: 'connect',
      token,
      ...(resume ? { resume: { connectionId: resume } } : {}),
    })
    if (connected.type !== 'connected') throw new Error(`expected connected, got ${JSON.stringify(connected)}`)
    return { socket, connected }
  }

  send(frame: Outgoing | string): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame))
  }

  /** Sends with a fresh id and resolves with the reply echoing it (or the error). */
  async request(frame: Outgoing, timeoutMs = 3000): Promise<Frame> {
    const id = `r${this.nextId++}`
    this.send({ ...frame, id })
    return this.take((f) => f.id === id, timeoutMs)
  }

  /** Removes and returns the first frame matching `match`, waiting for it if need be. */
  take(match: (f: Frame) => boolean, timeoutMs = 3000): Promise<Frame> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const i = this.inbox.findIndex(match)
        if (i >= 0) {
          finish()
          resolve(this.inbox.splice(i, 1)[0] as Frame)
        } else if (this.closeInfo) {
          finish()
          reject(new Error(`socket closed (${this.closeInfo.code} ${this.closeInfo.reason}) while waiting`))
        }
      }
      const timer = setTimeout(() => {
        finish()
        reject(
          new Error(`no matching frame within ${timeoutMs} ms; inbox: ${JSON.stringify(this.inbox).slice(0, 500)}`),
        )
      }, timeoutMs)
      const finish = () => {
        clearTimeout(timer)
        this.waiters.delete(check)
      }
      this.waiters.add(check)
      check()
    })
  }

  /** Every frame of `type` taken from the inbox (what has arrived so far). */
  drain(type: string): Frame[] {
    const out: Frame[] = []
    for (let i = this.inbox.length - 1; i >= 0; i--)
      if (this.inbox[i]?.type === type) out.unshift(...this.inbox.splice(i, 1))
    return out
  }

  async closedWithin(timeoutMs = 3000): Promise<Closed> {
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`socket still open after ${timeoutMs} ms`)), timeoutMs)
    })
    try {
      return await Promise.race([this.closed, timeout])
    } finally {
      clearTimeout(timer)
    }
  }

  close(): void {
    this.ws.close()
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter()
  }
}

export const messagesOf = (f: Frame): number[] => (f.missed ?? f.messages).map((m) => m.offset)
