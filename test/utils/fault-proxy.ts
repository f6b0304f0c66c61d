// A fault-injecting TCP proxy (node:net) for the reliability suite. It sits on 127.0.0.1:0 in
// front of the emulator and forwards bytes both ways, so HTTP and the WebSocket share its port,
// and it can misbehave on purpose: latency, bandwidth throttling, a cut after N bytes (mid-frame,
// mid-handshake), a blackhole (nothing passes, nothing closes: a half-open link), refused
// connections. Every connection has its own controls and counters; random choices come from a
// seeded PRNG, so a run replays exactly from its seed.
import { createServer, connect, type Server, type Socket } from 'node:net'
import { mulberry32, type Random } from './seed.js'

/** `up`: client → server; `down`: server → client. */
export type Direction = 'up' | 'down'

/** What a new connection gets: forwarded, refused at once (RST), or accepted and blackholed. */
export type ProxyMode = 'forward' | 'refuse' | 'blackhole'

export interface ProxyConnection {
  readonly id: number
  readonly openedAt: number
  /** Bytes forwarded so far. */
  readonly bytes: { up: number; down: number }
  /** When bytes last went through (ms since epoch; 0 for never). */
  readonly lastData: { up: number; down: number }
  /** The first bytes the client sent (request line and headers), up to 4 KiB, as latin1 text. */
  readonly head: string
  /** The client asked for a WebSocket upgrade. */
  readonly isWebSocket: boolean
  /** The request path of the first request, when it was seen. */
  readonly path: string | undefined
  readonly closed: boolean
  readonly blackholed: boolean
  /** Why it ended: `kill`, `cut`, `client`, `server`, `error`, `heal`, `proxy_close`. */
  readonly endedBy: string | undefined
  /** Destroys both sides at once (a reset for the client). */
  kill(reason?: string): void
  /** Forwards `bytes` more bytes in `dir` (splitting a chunk, so mid-frame), then cuts the link. */
  cutAfter(dir: Direction, bytes: number): void
  /** From now on nothing passes either way and nothing is closed: a half-open link. */
  blackhole(): void
  setLatency(ms: number): void
  /** Bytes per second each way; `undefined` for unlimited. */
  setBandwidth(bytesPerSecond: number | undefined): void
  /**
   * Called with every chunk read in `dir` (`index` counts from 0) before it is forwarded; the
   * listener may act on the connection (blackhole it, cut it) and so decide that chunk's fate.
   */
  onChunk(dir: Direction, listener: (chunk: Buffer, index: number) => void): void
  /** Resolves when the connection is closed. */
  readonly done: Promise<void>
}

export interface FaultProxyOptions {
  /** The upstream `http://host:port` (the emulator's url). */
  target: string
  seed?: number
  latencyMs?: number
  bytesPerSecond?: number
}

export interface FaultProxy {
  /** `http://127.0.0.1:<port>`: point clients here instead of at the emulator. */
  readonly url: string
  readonly port: number
  /** Open connections. */
  readonly connections: readonly ProxyConnection[]
  /** Every connection ever accepted, oldest first. */
  readonly history: readonly ProxyConnection[]
  readonly stats: {
    accepted: number
    refused: number
    kills: number
    cuts: number
    blackholed: number
    bytesUp: number
    bytesDown: number
  }
  /** The proxy's seeded PRNG (use it for every random fault decision). */
  readonly random: Random
  mode: ProxyMode
  /** Default latency (each way) for new and open connections. */
  setLatency(ms: number): void
  setBandwidth(bytesPerSecond: number | undefined): void
  /** Blackholes every open connection matching `filter`; returns how many. */
  blackholeAll(filter?: (c: ProxyConnection) => boolean): number
  /** Back to forwarding: new connections pass again; blackholed ones are reset (the link came back). */
  heal(): void
  killAll(filter?: (c: ProxyConnection) => boolean): number
  /** Called for every accepted connection (before any byte is forwarded); returns the undo. */
  onConnection(listener: (c: ProxyConnection) => void): () => void
  close(): Promise<void>
}

const HEAD_BYTES = 4096

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const target = new URL(options.target)
  const targetPort = Number(target.port)
  const targetHost = target.hostname.replace(/^\[|\]$/g, '')
  const random = mulberry32(options.seed ?? 1)
  let latency = options.latencyMs ?? 0
  let bandwidth = options.bytesPerSecond
  const open = new Set<Conn>()
  const history: Conn[] = []
  const listeners = new Set<(c: ProxyConnection) => void>()
  const stats = { accepted: 0, refused: 0, kills: 0, cuts: 0, blackholed: 0, bytesUp: 0, bytesDown: 0 }
  let nextId = 1
  let mode: ProxyMode = 'forward'

  class Pipe {
    private queue: { buf: Buffer; due: number }[] = []
    private timer: NodeJS.Timeout | undefined
    private nextFree = 0
    private ending = false
    /** Bytes left before a cut; undefined: no cut planned. */
    budget: number | undefined
    latency = latency
    bandwidth = bandwidth

    constructor(
      private readonly conn: Conn,
      private readonly dir: Direction,
      private readonly dest: () => Socket | undefined,
    ) {}

    push(chunk: Buffer): void {
      if (this.conn.blackholed || this.conn.closed) return
      const now = Date.now()
      const slices = this.bandwidth ? split(chunk, Math.max(1, Math.floor(this.bandwidth / 50))) : [chunk]
      for (const buf of slices) {
        let due = now + this.latency
        if (this.bandwidth) {
          const start = Math.max(now, this.nextFree)
          this.nextFree = start + (buf.length * 1000) / this.bandwidth
          due = Math.max(due, this.nextFree)
        }
        if (due <= now && this.queue.length === 0) this.write(buf)
        else this.queue.push({ buf, due })
      }
      this.schedule()
    }

    /** The source ended: end the destination once everything queued went out. */
    finish(): void {
      this.ending = true
      this.schedule()
    }

    drop(): void {
      clearTimeout(this.timer)
      this.timer = undefined
      this.queue = []
    }

    private schedule(): void {
      if (this.timer || this.conn.closed || this.conn.blackholed) return
      const head = this.queue[0]
      if (!head) {
        if (this.ending) this.dest()?.end()
        return
      }
      this.timer = setTimeout(
        () => {
          this.timer = undefined
          const now = Date.now()
          while (this.queue[0] && this.queue[0].due <= now && !this.conn.closed && !this.conn.blackholed)
            this.write(this.queue.shift()!.buf)
          this.schedule()
        },
        Math.max(0, head.due - Date.now()),
      )
    }

    private write(buf: Buffer): void {
      const dest = this.dest()
      if (!dest || this.conn.closed) return
      if (this.budget !== undefined) {
        if (buf.length >= this.budget) {
          const part = buf.subarray(0, this.budget)
          this.count(part.length)
          stats.cuts++
          // The partial chunk reaches the peer, then the link dies: a frame cut in the middle.
          this.conn.cut(dest, part, this.dir)
          return
        }
        this.budget -= buf.length
      }
      this.count(buf.length)
      dest.write(buf)
    }

    private count(n: number): void {
      this.conn.bytes[this.dir] += n
      if (n > 0) this.conn.lastData[this.dir] = Date.now()
      if (this.dir === 'up') stats.bytesUp += n
      else stats.bytesDown += n
    }
  }

  class Conn implements ProxyConnection {
    readonly id = nextId++
    readonly openedAt = Date.now()
    readonly bytes = { up: 0, down: 0 }
    readonly lastData = { up: 0, down: 0 }
    head = ''
    isWebSocket = false
    path: string | undefined
    closed = false
    blackholed = false
    endedBy: string | undefined
    upstream: Socket | undefined
    readonly up: Pipe
    readonly down: Pipe
    readonly done: Promise<void>
    private resolveDone!: () => void
    readonly chunkListeners = {
      up: [] as ((chunk: Buffer, index: number) => void)[],
      down: [] as ((chunk: Buffer, index: number) => void)[],
    }
    readonly chunks = { up: 0, down: 0 }

    constructor(readonly client: Socket) {
      this.up = new Pipe(this, 'up', () => this.upstream)
      this.down = new Pipe(this, 'down', () => this.client)
      this.done = new Promise((resolve) => (this.resolveDone = resolve))
    }

    sniff(chunk: Buffer): void {
      if (this.head.length >= HEAD_BYTES) return
      this.head += chunk.subarray(0, HEAD_BYTES - this.head.length).toString('latin1')
      this.path ??= /^[A-Z]+ (\S+) HTTP\/1\.[01]\r\n/.exec(this.head)?.[1]
      if (/\r\nupgrade:\s*websocket\r\n/i.test(this.head)) this.isWebSocket = true
    }

    kill(reason = 'kill'): void {
      if (this.closed) return
      if (reason === 'kill') stats.kills++
      this.end(reason)
      reset(this.client)
      reset(this.upstream)
    }

    cut(dest: Socket, part: Buffer, dir: Direction): void {
      if (this.closed) return
      this.end('cut')
      // The side that receives the partial chunk gets it, then EOF; the other side a reset.
      dest.end(part)
      reset(dir === 'up' ? this.client : this.upstream)
      setTimeout(() => dest.destroy(), 50).unref()
    }

    cutAfter(dir: Direction, bytes: number): void {
      if (!(Number.isInteger(bytes) && bytes >= 0)) throw new RangeError('bytes must be an integer ≥ 0')
      ;(dir === 'up' ? this.up : this.down).budget = bytes
    }

    blackhole(): void {
      if (this.closed || this.blackholed) return
      this.blackholed = true
      stats.blackholed++
      this.up.drop()
      this.down.drop()
    }

    onChunk(dir: Direction, listener: (chunk: Buffer, index: number) => void): void {
      this.chunkListeners[dir].push(listener)
    }

    /** A chunk read in `dir`: listeners first, then forwarding. */
    read(dir: Direction, chunk: Buffer): void {
      const index = this.chunks[dir]++
      for (const listener of this.chunkListeners[dir]) listener(chunk, index)
      ;(dir === 'up' ? this.up : this.down).push(chunk)
    }

    setLatency(ms: number): void {
      this.up.latency = this.down.latency = ms
    }

    setBandwidth(bps: number | undefined): void {
      this.up.bandwidth = this.down.bandwidth = bps
    }

    /** Marks the end once; both pipes stop. */
    end(reason: string): void {
      if (this.closed) return
      this.closed = true
      this.endedBy = reason
      this.up.drop()
      this.down.drop()
      open.delete(this)
      this.resolveDone()
    }
  }

  const server: Server = createServer({ noDelay: true }, (client) => {
    client.on('error', () => {})
    if (mode === 'refuse') {
      stats.refused++
      reset(client)
      return
    }
    stats.accepted++
    const conn = new Conn(client)
    open.add(conn)
    history.push(conn)
    conn.setLatency(latency)
    conn.setBandwidth(bandwidth)
    for (const listener of [...listeners]) listener(conn)
    if (mode === 'blackhole') conn.blackhole()

    client.on('data', (chunk: Buffer) => {
      conn.sniff(chunk)
      conn.read('up', chunk)
    })
    client.on('end', () => {
      if (!conn.blackholed) conn.up.finish()
    })
    client.on('close', () => {
      if (conn.blackholed || conn.closed) return conn.end(conn.endedBy ?? 'client')
      // Let what is queued towards the server go, then close that side too.
      conn.up.finish()
      conn.end('client')
      conn.upstream?.end()
    })
    if (conn.blackholed) return

    const upstream = connect({ host: targetHost, port: targetPort, noDelay: true })
    conn.upstream = upstream
    upstream.on('error', () => conn.kill('error'))
    upstream.on('data', (chunk: Buffer) => conn.read('down', chunk))
    upstream.on('end', () => {
      if (!conn.blackholed) conn.down.finish()
    })
    upstream.on('close', () => {
      if (conn.blackholed || conn.closed) return
      conn.down.finish()
      conn.end('server')
      client.end()
    })
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  const select = (filter?: (c: ProxyConnection) => boolean) => [...open].filter((c) => !filter || filter(c))

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get connections() {
      return [...open]
    },
    history,
    stats,
    random,
    get mode() {
      return mode
    },
    set mode(m: ProxyMode) {
      mode = m
    },
    setLatency(ms) {
      latency = ms
      for (const c of open) c.setLatency(ms)
    },
    setBandwidth(bps) {
      bandwidth = bps
      for (const c of open) c.setBandwidth(bps)
    },
    blackholeAll(filter) {
      const targets = select(filter)
      for (const c of targets) c.blackhole()
      return targets.length
    },
    heal() {
      mode = 'forward'
      for (const c of [...open]) if (c.blackholed) c.kill('heal')
    },
    killAll(filter) {
      const targets = select(filter)
      for (const c of targets) c.kill()
      return targets.length
    },
    onConnection(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    close() {
      for (const c of [...open]) c.kill('proxy_close')
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

function reset(socket: Socket | undefined): void {
  if (!socket || socket.destroyed) return
  // A TCP reset where the platform can (an abrupt cut), a plain destroy otherwise.
  if (typeof socket.resetAndDestroy === 'function' && socket.readyState === 'open') socket.resetAndDestroy()
  else socket.destroy()
}

function split(buf: Buffer, size: number): Buffer[] {
  if (buf.length <= size) return [buf]
  const out: Buffer[] = []
  for (let i = 0; i < buf.length; i += size) out.push(buf.subarray(i, i + size))
  return out
}
