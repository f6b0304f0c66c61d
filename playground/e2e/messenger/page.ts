// The page of the messenger's browser test (../messenger.test.ts): no framework, a customer's
// client and realtime connection, and <tandem-messenger> given their messenger. Bundled by
// esbuild with splitting, so the panel is a chunk of its own, as in an app's build.
import { createClient } from '@tandem/core'
import { messenger } from '@tandem/core/messenger'
import { defineMessenger } from '@tandem/messenger'
import { createRealtime } from '@tandem/realtime'

const api = new URL(location.href).searchParams.get('api') ?? location.origin
const client = createClient({ baseUrl: api, auth: { url: '/token' } })
const realtime = createRealtime({ client })
defineMessenger()
const el = document.querySelector('tandem-messenger')!
el.messenger = messenger(client, { realtime })
