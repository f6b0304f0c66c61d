// A TCP proxy (over fault-proxy.ts) that cuts the link at given points of an upload: it counts
// the bytes clients send upstream, across connections, and when the count reaches a cut point it
// forwards up to that byte exactly (mid-request, mid-chunk) and resets the connection, once per
// point. What tus-js-client sees is a train going through tunnels: the request dies mid-body,
// the next connection must resume from what the service kept.
import { startFaultProxy, type FaultProxy } from './fault-proxy.js'

export interface CuttingProxy {
  /** `http://127.0.0.1:<port>`: point the client here. */
  readonly url: string
  /** Upstream bytes forwarded so far (headers included), across every connection. */
  readonly sent: number
  /** The cut points reached so far (each cuts one connection once). */
  readonly cuts: readonly number[]
  close(): Promise<void>
}

/** `cutAt`: upstream byte counts (cumulative, ascending) at which to cut the connection carrying them. */
export async function startCuttingProxy(target: string, cutAt: readonly number[]): Promise<CuttingProxy> {
  const proxy: FaultProxy = await startFaultProxy({ target })
  const pending = [...cutAt].sort((a, b) => a - b)
  const cuts: number[] = []
  let sent = 0
  proxy.onConnection((conn) => {
    conn.onChunk('up', (chunk) => {
      if (conn.closed) return // what a cut connection still reads goes nowhere
      const before = sent
      sent += chunk.length
      const next = pending[0]
      if (next === undefined || sent < next) return
      pending.shift()
      cuts.push(next)
      // Forward exactly up to the cut point, then reset both sides; the rest of this chunk is lost.
      sent = next
      conn.cutAfter('up', next - before)
    })
  })
  return {
    url: proxy.url,
    get sent() {
      return sent
    },
    cuts,
    close: () => proxy.close(),
  }
}
