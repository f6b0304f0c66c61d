// A hidden tab's own notification (`hiddenTab`): the service pushes nothing while a tab is open,
// so the page shows the message itself, shaped exactly as the service's push would be (the
// contract's one derivation, pushPayloadOf) so that the worker's click and replace rules hold.
import { isPushPayload, pushPayloadOf, type PushPayload, type PushPayloadInput } from '@tandem/contract'

/**
 * `given` (a push payload, or a message to derive one from) as the payload to show, with `url`
 * (the controller's option) where the message names none; null for anything else.
 */
export function localPayload(given: unknown, url: string | undefined): PushPayload | null {
  if (isPushPayload(given)) return given
  let payload: unknown
  try {
    const message = given as PushPayloadInput
    payload = pushPayloadOf({ ...message, url: message.url ?? url ?? null })
  } catch {
    return null // not a message: its text was not a string
  }
  // The one shape check decides, whatever the message's fields were.
  return isPushPayload(payload) ? payload : null
}
