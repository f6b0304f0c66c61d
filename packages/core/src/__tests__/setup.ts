// Before every test file (vite.config.ts). A hook at the top of helpers.ts would run for the first
// file of a worker only: isolation is off, so the helpers are imported once per worker.
import { afterEach } from 'vitest'
import { closeEmulators } from './helpers.js'

afterEach(closeEmulators)
