// A hostile link between a Redis client and a real redis-server (127.0.0.1): it forwards bytes
// both ways until armed, then lets the next `SET … NX` through to Redis, waits for Redis to
// answer (so the claim is applied) and cuts the connection before the reply reaches the client.
import { createServer, connect, type Socket } from 'node:net'

export interface RedisProxy {
  url: string
  /** Cut the connection after the next `SET … NX` is applied, its reply unsent. */
  armCut: () => void
  /** How many replies were swallowed. */
  cuts: () => number
  close: () => Promise<void>
}

const SET_NX = /\r\nSET\r\n[\s\S]*\r\nNX\r\n/i

export async function startRedisProxy(redisPort: number): Promise<RedisProxy> {
  let armed = false
  let cuts = 0
  const sockets = new Set<Socket>()
  const server = createServer((client) => {
    const upstream = connect(redisPort, '127.0.0.1')
    sockets.add(client).add(upstream)
    let cutting = false
    const drop = () => {
      client.destroy()
      upstream.destroy()
    }
    client.on('data', (chunk) => {
      if (armed && SET_NX.test(chunk.toString('latin1'))) {
        armed = false
        cutting = true
      }
      upstream.write(chunk)
    })
    upstream.on('data', (chunk) => {
      if (!cutting) return void client.write(chunk)
      // Redis has answered: the claim is in. The client never hears of it.
      cuts++
      drop()
    })
    for (const s of [client, upstream]) {
      s.on('error', drop)
      s.on('close', () => {
        sockets.delete(s)
        drop()
      })
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `redis://127.0.0.1:${port}`,
    armCut: () => void (armed = true),
    cuts: () => cuts,
    close: async () => {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
