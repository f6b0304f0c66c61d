// Before every test file (vite.config.ts). A hook at the top of helpers.ts would run for the first
// file of a worker only: isolation is off, so the helpers are imported once per worker.
import { afterEach } from 'vitest'
import { closeClients } from './helpers.js'
import { closeHostile } from './hostile-server.js'

afterEach(async () => {
  closeClients()
  await closeHostile()
})
