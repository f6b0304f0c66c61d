// `.js`: Next.js has no exports map, so Node's ESM loader needs the file's name (a bundler takes either).
import { connection } from 'next/server.js'

/**
 * Tells Next.js that what follows belongs to a request: a user's live data, never a build's
 * static HTML. A prerender stops here (`connection()`): with cacheComponents, the Suspense
 * boundary above streams this part at request time; without it, the route renders per request.
 * Either way nothing after it reads the clock while Next.js prerenders, which it refuses.
 * Outside a request (a test, a script) Next.js throws at once that there is none: nothing to mark.
 */
export async function atRequestTime(): Promise<void> {
  let request: Promise<void>
  try {
    request = connection()
  } catch (error) {
    if (error instanceof Error && error.message.includes('outside a request scope')) return
    throw error
  }
  await request
}
