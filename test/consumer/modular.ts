// The modular style, as a size-conscious app writes it, against the built entry points.
import { getCache, listQuery } from '@tandem/core/cache'
import { collection, createBaseClient, isRateLimitError } from '@tandem/core/client'
import { geocode, maps } from '@tandem/core/maps'
import { realtimeRest } from '@tandem/core/realtime-rest'
import { support } from '@tandem/core/support'

export async function modular(): Promise<string> {
  const client = createBaseClient({ auth: { url: '/api/tandem-token' } })
  try {
    const { results } = await geocode(client, { query: 'Porto, Portugal' })
    const route = await maps(client).computeRoute({
      origin: { lat: 0, lng: 0 },
      destination: { placeId: 'p' },
      mode: 'walk',
    })
    const open = await collection(client, 'support', 'conversations').list({ status: 'active', limit: 1 })
    const status: 'active' | 'pending' | 'closed' | undefined = open.data[0]?.status
    const page = await support(client).conversations.list({ status: 'active' })
    const { offset } = await realtimeRest(client).publish('chat:lobby', 'message', { text: 'hi' })
    const cached = await getCache(client).fetch(listQuery('support/conversations', { status: 'pending' }))
    const subject: string | undefined = cached.items[0]?.subject
    return `${results[0]?.placeId ?? ''} ${route.distanceMeters} ${status ?? ''} ${page.data.length} ${offset} ${subject ?? ''}`
  } catch (e) {
    if (isRateLimitError(e)) return `retry in ${e.retryAfterMs} ms`
    throw e
  }
}
