import { TandemProvider } from '@tandem/react'
import { cleanup, render } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { poll } from '../../../../test/utils/wait.js'
import type { TandemDevtoolsElement } from '../element.js'
import { TandemDevtools } from '../react.js'
import { setup } from './helpers.js'

// <TandemDevtools /> in development: the element, its properties set once it is defined, the
// client and realtime of <TandemProvider> when not given.

afterEach(cleanup)

const element = (container: HTMLElement) => container.querySelector<TandemDevtoolsElement>('tandem-devtools')!

describe('<TandemDevtools />', () => {
  it('reads the client and realtime of <TandemProvider>', async () => {
    const s = await setup()
    const { container } = render(
      <TandemProvider client={s.client} realtime={s.realtime}>
        <TandemDevtools strings={{ launcherLabel: 'Devtools' }} />
      </TandemProvider>,
    )
    const el = element(container)
    await poll(() => el.client === s.client, 'the element defined, its client set')
    expect(el.realtime).toBe(s.realtime)
    expect(el.recorder).toBeDefined()
    expect(el.shadowRoot!.querySelector('button')!.textContent).toBe('Devtools')
  })

  it('takes its sources as props, with no provider; new props reach the element', async () => {
    const s = await setup()
    const { container, rerender } = render(<TandemDevtools client={s.client} />)
    const el = element(container)
    await poll(() => el.client === s.client && el.recorder !== undefined, 'the client set')
    expect(el.realtime).toBeUndefined()
    const actions = { dropConnection: async () => 'dropped' }
    rerender(<TandemDevtools client={s.client} realtime={s.realtime} actions={actions} />)
    await poll(() => el.realtime === s.realtime, 'the realtime set')
    expect(el.actions).toBe(actions)
  })
})
