import { tokenRoute } from '@tandem/next/server'
import { currentUser } from '@/lib/session'

export const { GET, POST } = tokenRoute({
  appId: process.env.TANDEM_APP_ID!,
  keyId: process.env.TANDEM_KEY_ID!,
  secret: process.env.TANDEM_SECRET!,
  authorize: async () => {
    const user = await currentUser()
    return user ? { subject: user.id, scope: ['support', 'realtime'] } : null
  },
})
