// The modular style, as a size-conscious app writes it, against the built entry points.
import { getCache, listQuery } from '@tandem/core/cache'
import { createClient, isRateLimitError } from '@tandem/core/client'
import { maps } from '@tandem/core/maps'
import { realtimeRest } from '@tandem/core/realtime-rest'
import { support } from '@tandem/core/support'

export async function modular(): Promise<string> {
  const client = createClient({ auth: { url: '/api/tandem-token' } })
  try {
    const { results } = await maps(client).geocode({ query: 'Porto, Portugal' })
    const page = await support(client).conversations.list({ status: 'active' })
    const { offset } = await realtimeRest(client).publish('chat:lobby', 'message', { text: 'hi' })
    const cached = await getCache(client).fetch(listQuery('support/conversations', { status: 'pending' }))
    const subject: string | undefined = cached.items[0]?.subject
    return `${results[0]?.placeId ?? ''} ${page.data.length} ${offset} ${subject ?? ''}`
  } catch (e) {
    if (isRateLimitError(e)) return `retry in ${e.retryAfterMs} ms`
    throw e
  }
}
