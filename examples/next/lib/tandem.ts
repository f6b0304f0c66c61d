// Server-only settings of the example: where the services are, and the app key that signs users'
// tokens. The defaults are the emulator's local-only dev app (scripts/run.mjs starts the emulator).
import { createServerClient } from '@tandem/next/server'
import { cache } from 'react'

/** The app key: from the environment in a real deployment, the emulator's DEV_APP by default. */
export const MINT = {
  appId: process.env.TANDEM_APP_ID ?? 'app_dev',
  keyId: process.env.TANDEM_KEY_ID ?? 'key_dev',
  secret: process.env.TANDEM_SECRET ?? 'tandem_dev_secret_local_only',
}

/** The signed-in user. A real app reads its session (cookies(), its auth library) here. */
export const USER = { subject: 'agent-demo', scope: ['support', 'maps', 'realtime'] }

export function baseUrl(): string {
  const url = process.env.TANDEM_URL
  if (!url) throw new Error('TANDEM_URL is not set: start the example with `npm run dev -w examples/next`.')
  return url
}

/** One server client per request: React's cache() shares it between the request's components. */
export const serverClient = cache(() => createServerClient({ baseUrl: baseUrl(), mint: MINT, ...USER }))
