// Web Push (RFC 8030 delivery, RFC 8291 `aes128gcm` encryption, RFC 8292 VAPID): the rules the
// service, the emulator, the browser entry and the service-worker helper share (docs/push.md).
// The service pushes a message to a subject only when none of its tabs is open: the rule is `graceMs`.

/** Web Push's limits and numbers. */
export const PUSH = {
  /**
   * A message is pushed only when the subject had no open realtime connection of the app from the
   * message until this long after it: a reload (or a tab closed and reopened) notifies nobody.
   */
  graceMs: 10_000,
  /** Registrations one subject holds per app: an 11th replaces the oldest (a dead browser never locks out a new one). */
  subscriptionsPerSubject: 10,
  /** The JSON payload's UTF-8 size before encryption; the service shortens `body` to fit. */
  payloadBytes: 3072,
  /** A payload's `title`, in characters. */
  titleChars: 100,
  /** A payload's `body`, in characters (the message's text, shortened with `…`). */
  bodyChars: 240,
  /** How long a push service keeps an undelivered push (the `TTL` header, seconds). */
  ttlSeconds: 86_400,
  /** The `Urgency` header of every push the service sends (RFC 8030 §5.3). */
  urgency: 'high',
  /** A subscription's `endpoint` (and a click `url`), in characters. */
  endpointChars: 2048,
  /** Mailboxes one agent's registration names, at most. */
  mailboxIds: 50,
  /** `keys.p256dh`: an uncompressed P-256 point. */
  p256dhBytes: 65,
  /** `keys.auth`: the subscription's authentication secret. */
  authBytes: 16,
  /** The service's VAPID public key: an uncompressed P-256 point. */
  publicKeyBytes: 65,
} as const

/** RFC 8030 §5.3, lowest first. */
export const PUSH_URGENCIES = ['very-low', 'low', 'normal', 'high'] as const
export type PushUrgency = (typeof PUSH_URGENCIES)[number]

/**
 * Who a subscription belongs to. `customer`: a customer token's (CUSTOMER_SCOPE); it hears the
 * agents' replies (never a note) in its own conversations. `agent`: a token whose scope reads
 * support; it hears the customers' messages in conversations of its `mailboxIds` (every mailbox
 * when null). Any other caller is refused 403.
 */
export const PUSH_KIND = ['agent', 'customer'] as const
export type PushKind = (typeof PUSH_KIND)[number]

/**
 * An uncompressed P-256 point (65 bytes, first 0x04) in unpadded base64url: 87 characters, the
 * first `B`, the last carrying 4 bits (so one of 16 characters): `keys.p256dh` and the VAPID key.
 */
export const PUSH_P256DH = /^B[\w-]{85}[AEIMQUYcgkosw048]$/
/** A 16-byte secret in unpadded base64url: 22 characters, the last carrying 2 bits. */
export const PUSH_AUTH = /^[\w-]{21}[AQgw]$/
/** The service's VAPID public key (`applicationServerKey`): the same form as `keys.p256dh`. */
export const PUSH_PUBLIC_KEY = PUSH_P256DH

/**
 * A subscription's endpoint: an absolute `https:` URL (`PUSH.endpointChars` at most), with no
 * credentials (`user:pass@`), no fragment and no white space. Push services only ever give these.
 */
export const PUSH_ENDPOINT = /^https:\/\/[^\s/?#@\\]+(?:[/?][^\s#\\]*)?$/
/** The rule in words, for error messages. */
export const PUSH_ENDPOINT_RULE = 'must be an absolute https: URL without credentials or fragment'

/**
 * What a notification's click opens: an absolute `https:` URL, or `http:` on a loopback host (a
 * developer's machine), no credentials. `{conversationId}` in it is replaced by the conversation's id.
 */
export const PUSH_URL =
  /^(?:https:\/\/[^\s/?#@\\]+|http:\/\/(?:localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?)(?:[/?#][^\s\\]*)?$/
/** The placeholder of a click `url`, replaced by `encodeURIComponent(conversationId)`. */
export const PUSH_URL_CONVERSATION = '{conversationId}'

/** The payload's `v`: a worker shows nothing for a version it does not know. */
export const PUSH_PAYLOAD_VERSION = 1

/**
 * What a page's tabs hear from the app's service worker after `pushsubscriptionchange`
 * (`{ type: PUSH_RENEWED }`): `@tandem/core/push-worker` posts it, `@tandem/core/push` registers again.
 */
export const PUSH_RENEWED = 'tandem:push-renewed'
