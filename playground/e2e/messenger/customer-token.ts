// The token route of a customer's page, as an app's backend answers it: a short-lived token for
// one customer, minted by the emulator (the plain page and the bundled page both serve it).
import type { ServerResponse } from 'node:http'
import type { Emulator } from '@tandem/emulator'

export function answerCustomerToken(emu: Emulator, customer: string, res: ServerResponse): void {
  emu.mintToken({ subject: customer, scope: ['support:customer'] }).then(
    (token) => {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      res.end(JSON.stringify({ token, expiresIn: 600 }))
    },
    () => (res.writeHead(500), res.end()),
  )
}
