// The devtools from their three entries, against the built types: the switch, the real thing, React.
import { createClient } from '@tandem/core'
import { emulatorActions, mountDevtools, type DevtoolsSnapshot, type TandemDevtoolsElement } from '@tandem/devtools'
import { createDevtoolsRecorder, defineDevtools, DEFAULT_STRINGS } from '@tandem/devtools/production'
import { TandemDevtools } from '@tandem/devtools/react'
import { createRealtime } from '@tandem/realtime'

const client = createClient({ auth: { url: '/api/tandem-token' } })
const realtime = createRealtime({ client })

export const unmount: () => void = mountDevtools({ client, realtime, actions: emulatorActions({ user: 'ada' }) })

export function lastCall(): string | undefined {
  const recorder = createDevtoolsRecorder({ client, realtime }, { maxRequests: 50 })
  const snapshot: DevtoolsSnapshot = recorder.getSnapshot()
  recorder.stop()
  return snapshot.requests[0]?.requestId
}

export function element(): TandemDevtoolsElement {
  defineDevtools()
  const el = document.createElement('tandem-devtools')
  el.strings = { launcherLabel: DEFAULT_STRINGS.launcherLabel.toUpperCase() }
  el.client = client
  return el
}

export const Devtools = () => <TandemDevtools client={client} realtime={realtime} strings={{ title: 'Inside' }} />
