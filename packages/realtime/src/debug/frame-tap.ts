// createRealtime's raw frames, for watchFrames (@tandem/realtime/debug) alone. A raw frame can carry
// a token, so it is never a public event: the way in is this module, which only the debug entry
// imports, and the client's part is a variable and two optional calls (0 bytes of parsing or
// redaction in an app that does not import the debug entry).

/**
 * Given each frame this client writes (`out`, once the socket took it) or reads (`in`, as the
 * socket had it, with `refused` when the client could not parse it).
 */
export type FrameTap = (direction: 'in' | 'out', data: unknown, refused?: boolean) => void

/** By client: sets its tap (undefined: none, and nothing is done per frame). */
export const frameTaps = new WeakMap<object, (tap: FrameTap | undefined) => void>()
