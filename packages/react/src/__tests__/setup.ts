// Testing Library's waitFor gives up after 1 s by default: a first request on a loaded CI
// machine (token, then the emulator's cold data) took 1.5–2.4 s. Still bounded, never a hang.
import { configure } from '@testing-library/react'

configure({ asyncUtilTimeout: 10_000 })
