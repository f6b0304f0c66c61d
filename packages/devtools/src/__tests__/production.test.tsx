import { cleanup, render } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { poll } from '../../../../test/utils/wait.js'
import { createDevtoolsRecorder, defineDevtools, emulatorActions, mountDevtools } from '../index.js'
import { TandemDevtools } from '../react.js'
import { setup } from './helpers.js'

// The switch of `@tandem/devtools` and `@tandem/devtools/react`: NODE_ENV=production, nothing
// (no element, no import, no actions); anything else (tests, development), the devtools.

afterEach(() => {
  cleanup()
  vi.unstubAllEnvs()
  for (const el of document.body.querySelectorAll('tandem-devtools')) el.remove()
})

const devtoolsOnPage = () => document.body.querySelectorAll('tandem-devtools').length

describe('in production', () => {
  it('mountDevtools appends nothing, defineDevtools defines nothing, emulatorActions gives no actions, no recorder', async () => {
    const s = await setup()
    vi.stubEnv('NODE_ENV', 'production')
    expect(createDevtoolsRecorder({ client: s.client })).toBeUndefined()
    const unmount = mountDevtools({ client: s.client })
    expect(await defineDevtools('tandem-devtools-prod')).toBeUndefined()
    expect(customElements.get('tandem-devtools-prod')).toBeUndefined()
    expect(emulatorActions({ user: 'ada' })).toEqual({})
    // The same call in development, made after: once its element is there, the first would be too.
    vi.unstubAllEnvs()
    const dev = mountDevtools({ client: s.client })
    await poll(() => devtoolsOnPage() > 0, 'the development devtools')
    expect(devtoolsOnPage()).toBe(1)
    unmount()
    dev()
    expect(devtoolsOnPage()).toBe(0)
    expect(Object.keys(emulatorActions({ user: 'ada' }))).toEqual(['dropConnection', 'expireToken'])
    const recorder = createDevtoolsRecorder({ client: s.client })
    expect(recorder?.getSnapshot().requests).toEqual([])
    recorder?.stop()
  })

  it('<TandemDevtools /> renders nothing and imports nothing', async () => {
    const s = await setup()
    vi.stubEnv('NODE_ENV', 'production')
    const { container } = render(<TandemDevtools client={s.client} />)
    expect(container.childNodes).toHaveLength(0)
  })
})
