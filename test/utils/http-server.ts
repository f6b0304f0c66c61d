// A hand-written HTTP server on 127.0.0.1 for a hostile test: where it listens, and a close that
// ends every socket it holds (keep-alive ones included), so no test leaves one behind.
import { once } from 'node:events'
import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

export interface Served {
  server: Server
  /** `http://127.0.0.1:<port>` */
  url: string
  close(): Promise<void>
}

export async function serve(handler: RequestListener): Promise<Served> {
  const sockets = new Set<Socket>()
  const server = createServer(handler)
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      for (const s of sockets) s.destroy()
      server.close()
      await once(server, 'close')
    },
  }
}

/** A port free on 127.0.0.1 right now, for a child process to listen on (a server of its own). */
export async function freePort(): Promise<number> {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  server.close()
  await once(server, 'close')
  return port
}
