// After each test of every file: isolation is off (vite.config.ts), so a hook at the top of
// helpers.ts would run for the first file of a worker only.
import { afterEach } from 'vitest'
import { cleanupAll } from './helpers.js'

afterEach(cleanupAll)
