// Before every test file (vite.config.ts). A hook at the top of conformance.ts would check the
// first file of a worker only: isolation is off, so it is imported once per worker.
import { afterEach } from 'vitest'
import { expectConformance } from './conformance.js'

afterEach(expectConformance)
