// Testing Library's waitFor gives up after 1 s by default: a first request on a loaded CI
// machine (token, then the emulator's cold data) took 1.5–2.4 s. Still bounded, never a hang.
import { configure } from '@testing-library/react'
import { afterEach } from 'vitest'
import { cleanupAll } from './helpers.js'

configure({ asyncUtilTimeout: 10_000 })

// After each test of every file: isolation is off (vite.config.ts), so a hook at the top of
// helpers.tsx would run for the first file of a worker only.
afterEach(cleanupAll)
