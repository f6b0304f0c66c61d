// @tandem/devtools/react: <TandemDevtools />. In production it renders null and never imports the
// element: the component checks `process.env.NODE_ENV` itself (see index.ts), so a production
// bundle keeps only `() => null`. In development it starts a recorder in its first effect (unless
// given one), renders <tandem-devtools>, imports the element (a chunk of its own) and sets its
// properties, the recorder among them: what happened while the chunk loaded is in the panel. The
// sources not given come from <TandemProvider>.
import { useTandem } from '@tandem/react'
import { createElement, useEffect, useRef, useState, type ReactElement } from 'react'
import type { TandemDevtoolsElement } from './element.js'
import { createDevtoolsRecorder } from './recorder.js'
import type { Realtime } from '@tandem/realtime'
import type { DevtoolsOptions, DevtoolsRecorder } from './types.js'

/** The sources, `recorder`, `actions` and `strings` of `<tandem-devtools>`, each optional. */
export type TandemDevtoolsProps = DevtoolsOptions

/**
 * The devtools for a React app. Without `client`, it reads the client (and the realtime
 * connection, unless `realtime` is given) of the nearest `<TandemProvider>`.
 *
 * @example
 * ```tsx
 * <TandemProvider client={client} realtime={realtime}>
 *   <App />
 *   <TandemDevtools />
 * </TandemProvider>
 * ```
 */
export function TandemDevtools(props: TandemDevtoolsProps): ReactElement | null {
  try {
    return inDevelopment(props)
  } catch (error) {
    // No bundler, no `process`: off, as in production.
    if (error instanceof ReferenceError) return null
    throw error
  }
}

/** The element's module: set in development only, so the one `import()` sits inside the folded `if`. */
let load: (() => Promise<typeof import('./production.js')>) | undefined

/** A plain `if` around the element and its import: what bundlers fold away in production (see index.ts). */
function inDevelopment(props: TandemDevtoolsProps): ReactElement | null {
  if (process.env.NODE_ENV !== 'production') {
    load ??= () => import('./production.js')
    return createElement(props.client ? Devtools : FromProvider, props)
  }
  return null
}

/** The provider's realtime is a `LiveSource`; the devtools read it only if it is a whole connection. */
const asRealtime = (source: unknown): Realtime | undefined =>
  source && typeof (source as Realtime).channels === 'function' ? (source as Realtime) : undefined

function FromProvider(props: TandemDevtoolsProps): ReactElement {
  const { client, realtime } = useTandem()
  return createElement(Devtools, { ...props, client, realtime: props.realtime ?? asRealtime(realtime) })
}

function Devtools(props: TandemDevtoolsProps): ReactElement {
  const { client, realtime, tabs, outbox, persister, actions, strings, recorder: given } = props
  // A callback ref (the element, in state): the properties are set when it is there and defined.
  const [el, setEl] = useState<TandemDevtoolsElement | null>(null)
  const [defined, setDefined] = useState(false)
  // A ref, not state: made in an effect, read by the next effect of the same commit (no render needed).
  const own = useRef<DevtoolsRecorder>(undefined)

  // First: recording starts now, before the element's chunk has loaded. Made in the effect and
  // stopped in its cleanup (StrictMode runs it twice: the first one is stopped, the second kept).
  useEffect(() => {
    if (given) return
    const recorder = createDevtoolsRecorder({ client, realtime, tabs })
    own.current = recorder
    return () => {
      recorder.stop()
      own.current = undefined
    }
  }, [given, client, realtime, tabs])

  useEffect(() => {
    let live = true
    void load?.().then((m) => {
      m.defineDevtools()
      if (live) setDefined(true)
    })
    return () => {
      live = false
    }
  }, [])

  // Properties only once the element is defined: set before, they would hide its setters.
  // Its dependencies include the first effect's: whenever that makes a recorder, this one passes it on.
  useEffect(() => {
    if (!defined || !el) return
    const recorder = given ?? own.current
    Object.assign(el, { client, realtime, tabs, outbox, persister, recorder, actions, strings })
  }, [defined, el, given, client, realtime, tabs, outbox, persister, actions, strings])

  return createElement('tandem-devtools', { ref: setEl })
}
