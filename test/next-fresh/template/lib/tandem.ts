import { createServerClient } from '@tandem/next/server'
import { redirect } from 'next/navigation'
import { cache } from 'react'
import { currentUser } from './session'

/** One server client per request (React's cache()), acting for the signed-in user. */
export const serverClient = cache(async () => {
  const user = await currentUser()
  if (!user) redirect('/sign-in')
  return createServerClient({
    baseUrl: process.env.NEXT_PUBLIC_TANDEM_URL,
    mint: { appId: process.env.TANDEM_APP_ID!, keyId: process.env.TANDEM_KEY_ID!, secret: process.env.TANDEM_SECRET! },
    subject: user.id,
    // 'realtime' too: prefetch then reads where each live list's channel stands, and the browser
    // resumes from there instead of fetching the list again.
    scope: ['support', 'realtime'],
  })
})
