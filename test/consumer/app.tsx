// What a user's app writes, type-checked against the built packages (see tsconfig.json here).
import { createClient, isRateLimitError, type Conversation, type TandemClient } from '@tandem/core'
import { createEmulator, startEmulator } from '@tandem/emulator'
import { TandemProvider, useMutation, useResources } from '@tandem/react'
import { useChannel, usePresence } from '@tandem/react/realtime'
import { createRealtime, type Message } from '@tandem/realtime'
import { sessionPositions } from '@tandem/realtime/positions'
import { createTokenHandler, createWebhookHandler, mintToken, verifyToken } from '@tandem/server'

export async function rest(client: TandemClient): Promise<string | undefined> {
  try {
    const { results } = await client.maps.geocode({ query: 'Porto, Portugal' })
    const page = await client.support.conversations.list({ status: 'active', limit: 5 })
    const first: Conversation | undefined = page.data[0]
    return results[0]?.placeId ?? first?.subject
  } catch (e) {
    if (isRateLimitError(e)) return `retry in ${e.retryAfterMs} ms`
    throw e
  }
}

export function Chat() {
  const { messages, publish } = useChannel<{ text: string }>('chat:lobby', undefined, { keep: 50 })
  const { members } = usePresence('chat:lobby', { name: 'Kim' })
  const { items, status } = useResources('support/conversations', { limit: 10 })
  const reply = useMutation((text: string, client) => client.support.conversations.note('cnv_1', { text }))
  const last: Message<{ text: string }> | undefined = messages.at(-1)
  return (
    <p onClick={() => void publish('message', { text: 'hi' }).then(() => reply.mutate('sent'))}>
      {status} {items.length} {members.length} {last?.data.text}
    </p>
  )
}

export async function server(): Promise<void> {
  const secret = 'a-secret-of-at-least-32-characters!!'
  const handler = createTokenHandler({
    appId: 'app',
    keyId: 'key',
    secret,
    authorize: () => ({ subject: 'u1', scope: ['maps'] }),
  })
  const { token } = await mintToken({ appId: 'app', keyId: 'key', secret, subject: 'u1', scope: ['maps'] })
  const claims = await verifyToken(token, { appId: 'app', keys: { key: secret } })
  const webhooks = createWebhookHandler({ secret, on: { 'conversation.created': async () => {} } })
  void [handler, claims.sub, webhooks, createEmulator]
  const emu = await startEmulator({ port: 0 })
  const client = createClient({ baseUrl: emu.url, auth: { url: `${emu.url}/dev/token` } })
  const rt = createRealtime({ client }, { positions: sessionPositions({ key: 'tandem:realtime:ada' }) })
  rt.close()
  await emu.close()
}

export const app = (client: TandemClient) => <TandemProvider client={client}>{null}</TandemProvider>
