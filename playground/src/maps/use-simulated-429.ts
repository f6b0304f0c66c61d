import { useTandem } from '@tandem/react'
import { useEffect, useState } from 'react'

/**
 * The dev-only "Simulate a 429" control (its request is not in a production build): asks the dev server to refuse the next maps request with
 * 429, says so until it happens (then the hint goes: the busy line shows the wait), and remembers
 * when the service's Retry-After ends, so the busy line can say whose wait it is.
 */
export function useSimulated429(user: string) {
  const { client } = useTandem()
  const [armed, setArmed] = useState<number>() // the Retry-After the dev server will send, in s
  const [failure, setFailure] = useState<unknown>()
  const [serviceWaitUntil, setServiceWaitUntil] = useState(0)

  useEffect(
    () =>
      client.on('retry', (e) => {
        if (e.service !== 'maps' || e.status !== 429) return
        setArmed(undefined)
        setServiceWaitUntil(Date.now() + e.delayMs)
      }),
    [client],
  )

  const arm = async () => {
    // The dev server's control: compiled out of a production build, where the link is absent too.
    if (!import.meta.env.DEV) return
    setFailure(undefined)
    try {
      const res = await fetch(`/api/dev/rate-limit?user=${encodeURIComponent(user)}`, { method: 'POST' })
      const body = (await res.json()) as { retryAfterSeconds?: number }
      setArmed(body.retryAfterSeconds ?? 0)
    } catch (e) {
      setFailure(e)
    }
  }
  return { armed, failure, arm, serviceWaitUntil }
}
