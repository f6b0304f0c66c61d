import type { Channel } from '@tandem/realtime'
import { useEffect, useState, type RefObject } from 'react'

export interface Delivery {
  /** Offsets skipped within an epoch: messages this page never got. */
  lost: number
  /** Messages delivered again (an offset at or below the last one). */
  duplicated: number
}

/**
 * The page's own check of the SDK's promise (every message once, in order), independent of the
 * message list: every event of the channel, offset by offset. It renders only when a count changes;
 * the last offset received is written on `mark` as `data-received`, outside React (no render).
 */
export function useDeliveryCheck(channel: Channel, mark?: RefObject<HTMLElement | null>): Delivery {
  const [counts, setCounts] = useState<Delivery>({ lost: 0, duplicated: 0 })
  useEffect(() => {
    let last: { epoch: string; offset: number } | undefined
    return channel.subscribe((m) => {
      const prev = last
      last = { epoch: m.epoch, offset: m.offset }
      if (mark?.current) mark.current.dataset.received = String(m.offset)
      if (!prev || prev.epoch !== m.epoch) return // a new epoch starts over (the SDK reports it as a discontinuity)
      if (m.offset <= prev.offset) {
        last = prev
        setCounts((c) => ({ ...c, duplicated: c.duplicated + 1 }))
      } else if (m.offset > prev.offset + 1) setCounts((c) => ({ ...c, lost: c.lost + m.offset - prev.offset - 1 }))
    })
  }, [channel, mark])
  return counts
}
