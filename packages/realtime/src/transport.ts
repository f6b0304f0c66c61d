import { OPEN_TIMEOUT_MS } from './defaults.js'

export interface TransportOptions {
  /** Called before every attempt: waits out our jittered backoff, the network and the token. */
  url: () => Promise<string>
  WebSocket: unknown
  onOpen(): void
  onMessage(data: unknown): void
  onClose(code: number, reason: string): void
}

export interface Transport {
  start(): void
  send(text: string): boolean
  /** Drops the current socket (dead link, offline) and lets the next attempt begin. */
  restart(reason: string): void
  stop(): void
}

type Socket = Pick<WebSocket, 'readyState' | 'send' | 'close' | 'onopen' | 'onmessage' | 'onclose' | 'onerror'>

/**
 * The reconnecting socket: one attempt after another, each preceded by `url()` (which holds
 * the backoff, offline pause and token), until stopped (`onClose` stops it on a fatal code). A socket we
 * drop ourselves reports its close at once and is forgotten, so a half-open link cannot keep us
 * waiting for its close handshake. (Replaces partysocket: see docs/realtime.md.)
 */
export function createTransport(o: TransportOptions): Transport {
  let ws: Socket | undefined
  let running = false
  let attempt = 0
  let timer: ReturnType<typeof setTimeout> | undefined

  async function open() {
    const mine = ++attempt
    const url = await o.url()
    if (!running || mine !== attempt) return
    const s: Socket = (ws = new (o.WebSocket as new (url: string) => Socket)(url))
    timer = setTimeout(() => drop(s, 'open_timeout'), OPEN_TIMEOUT_MS)
    s.onopen = () => {
      clearTimeout(timer)
      o.onOpen()
    }
    s.onmessage = (e) => o.onMessage(e.data)
    s.onclose = (e) => ended(s, e.code, e.reason)
    s.onerror = () => {} // the close that follows is what we act on
  }

  function ended(s: Socket, code: number, reason: string) {
    if (s !== ws) return
    ws = undefined
    clearTimeout(timer)
    s.onopen = s.onmessage = s.onclose = null
    o.onClose(code, reason)
    if (running) void open()
  }

  function drop(s: Socket, reason: string) {
    try {
      s.close(1000, reason)
    } catch {
      // already closing
    }
    ended(s, 1000, reason)
  }

  return {
    start() {
      running = true
      if (!ws) void open()
    },
    send(text) {
      if (ws?.readyState !== 1) return false
      ws.send(text)
      return true
    },
    restart: (reason) => ws && drop(ws, reason),
    stop() {
      running = false
      attempt++
      if (ws) drop(ws, 'client_close')
    },
  }
}
