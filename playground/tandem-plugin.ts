import { createEmulator, DEV_APP, type EmulatorOptions } from '@tandem/emulator'
import { createTokenHandler, toNodeListener } from '@tandem/server'
import type { Plugin } from 'vite'

/**
 * Embeds the emulator (the three services) and a demo token endpoint in the Vite dev server,
 * so the playground runs with no account and no network. The key secret lives only here, in
 * the dev server process: the browser gets short-lived tokens from `/api/tandem-token`.
 */
export function tandemEmulator(options: EmulatorOptions = {}): Plugin {
  return {
    name: 'tandem-emulator',
    apply: 'serve',
    configureServer(server) {
      const emulator = createEmulator(options)
      const key = DEV_APP.keys[0]!
      // This is where your backend decides who the user is (session cookie, etc.) and what they may do.
      const tokens = createTokenHandler({
        appId: DEV_APP.appId,
        keyId: key.id,
        secret: key.secret,
        ttlSeconds: 600,
        authorize: () => ({ subject: 'playground-user', scope: ['maps', 'support', 'realtime'] }),
      })
      server.middlewares.use('/api/tandem-token', toNodeListener(tokens))
      server.middlewares.use((req, res, next) => emulator.handle(req, res, next))
      if (server.httpServer) emulator.attach(server.httpServer as import('node:http').Server)
    },
  }
}
