import type { PushWorkerStrings } from '@tandem/core/push-worker'

/** The playground's notification text: who wrote, and what (the service shortened it to fit). */
export const PUSH_STRINGS: PushWorkerStrings = {
  title: (payload) => `${payload.title} · Tandem playground`,
  body: (payload) => payload.body,
}
