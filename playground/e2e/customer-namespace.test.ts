// Customers and agents are two name spaces in the dev server (issue 44, row 11): customer bob
// (customer.html?customer=bob) and agent bob (?user=bob) are two people, so one's dev controls
// (Drop connection, Expire token) never reach the other's socket. The playground's own plugin in a
// real Vite dev server, with real sockets from Node; no browser is needed to see it.
import { createRealtime, type Realtime, type StateChange } from '@tandem/realtime'
import { createServer, type ViteDevServer } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { tandemEmulator } from '../tandem-plugin.js'
import { here, WAIT } from './harness.js'

const RUN = Date.now().toString(36)

describe('customers and agents have separate dev name spaces', () => {
  let server: ViteDevServer
  let url = ''
  const open: Realtime[] = []
  beforeAll(async () => {
    // The plugin alone (no React, no pages), as `npm run dev` embeds it.
    server = await createServer({
      configFile: false,
      root: here('..'),
      logLevel: 'silent',
      plugins: [tandemEmulator()],
      server: { host: '127.0.0.1', port: 0, ws: false },
    })
    await server.listen()
    url = server.resolvedUrls!.local[0]!.replace(/\/$/, '')
  })
  afterAll(async () => {
    for (const rt of open) rt.close()
    await server?.close()
  })

  /** A connected client of `who` (`user=bob` or `customer=bob`), and every state it went through. */
  async function connect(who: string) {
    const rt = createRealtime(
      { auth: { url: `${url}/api/tandem-token?${who}` }, url: `${url}/realtime` },
      { WebSocket },
    )
    open.push(rt)
    const states: StateChange[] = []
    rt.on('state', (s) => void states.push(s))
    rt.connect()
    await expect.poll(() => rt.state, WAIT).toBe('connected')
    return { rt, states, id: rt.connectionId }
  }

  const post = async (path: string) => {
    const res = await fetch(`${url}/api/dev/${path}`, { method: 'POST' })
    return { status: res.status, body: (await res.json()) as Record<string, unknown> }
  }

  /** The token endpoint's subject for `who`. */
  const subject = async (who: string) => {
    const { token } = (await (await fetch(`${url}/api/tandem-token?${who}`, { method: 'POST' })).json()) as {
      token: string
    }
    return (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub
  }

  it("customer bob's Drop connection and Expire token leave agent bob connected, and the other way round", async () => {
    const name = `bob-${RUN}`
    expect(await subject(`user=${name}`)).toBe(name)
    expect(await subject(`customer=${name}`)).toBe(`customer.${name}`)

    const agent = await connect(`user=${name}`)
    const customer = await connect(`customer=${name}`)

    // The customer page's Drop connection: the customer's one socket, and it comes back.
    expect(await post(`drop?customer=${name}`)).toEqual({ status: 200, body: { dropped: 1 } })
    await expect.poll(() => customer.states.some((s) => s.current === 'reconnecting'), WAIT).toBe(true)
    await expect.poll(() => customer.rt.state, WAIT).toBe('connected')
    // Its Expire token: the customer's tokens only; the customer closes (4102), fetches one, resumes.
    const before = customer.states.length
    expect(await post(`expire?customer=${name}`)).toEqual({ status: 200, body: { revoked: 1 } })
    await expect.poll(() => customer.states.slice(before).some((s) => s.reason === 'token_revoked'), WAIT).toBe(true)
    await expect.poll(() => customer.rt.state, WAIT).toBe('connected')
    expect(agent.states.map((s) => s.current)).toEqual(['connecting', 'connected'])
    expect(agent.rt.connectionId).toBe(agent.id)

    // The agent's own: the agent's socket, not the customer's.
    const customerStates = customer.states.length
    expect(await post(`drop?user=${name}`)).toEqual({ status: 200, body: { dropped: 1 } })
    await expect.poll(() => agent.states.some((s) => s.current === 'reconnecting'), WAIT).toBe(true)
    await expect.poll(() => agent.rt.state, WAIT).toBe('connected')
    expect(customer.states.length).toBe(customerStates)

    // One name, or the other: both, or neither, is refused.
    for (const query of [`user=${name}&customer=${name}`, '', 'customer=no%20spaces'])
      expect((await post(`drop?${query}`)).status, query).toBe(400)
  })
})
