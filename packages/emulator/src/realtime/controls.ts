// `emu.realtime`: the knobs tests turn to make the network and the service misbehave on purpose.
import { CLOSE } from '@tandem/contract'
import { DEFAULTS } from './defaults.js'
import type { Hub } from './hub.js'
import type { DropOptions, RealtimeControls, RealtimeEvent } from './types.js'

/** `defaultApp`: the app `publish` uses when none is named (the emulator's first). */
export function createControls(hub: Hub, defaultApp = ''): RealtimeControls {
  const bySubject = (subject: string | undefined) =>
    [...hub.sockets].filter((c) => subject === undefined || c.identity?.subject === subject)

  return {
    dropConnections({ subject, code = CLOSE.connection_dropped, raw = false }: DropOptions = {}) {
      if (!raw && !(code === 1000 || (code >= 3000 && code <= 4999)))
        throw new RangeError('code must be 1000 or 3000–4999')
      const targets = bySubject(subject)
      for (const conn of targets) {
        if (raw) hub.terminate(conn)
        else hub.close(conn, code)
      }
      return targets.length
    },
    pauseHeartbeats: () => void (hub.paused = true),
    resumeHeartbeats: () => void (hub.paused = false),
    blackhole(subject) {
      const targets = bySubject(subject)
      for (const conn of targets) conn.blackholed = true
      return targets.length
    },
    restart({ channel, dropConnections = channel === undefined } = {}) {
      for (const c of hub.channelsNamed(channel)) c.restart()
      hub.forgetPositions(channel)
      if (dropConnections) for (const conn of [...hub.sockets]) hub.close(conn, CLOSE.server_restart)
    },
    delayFrames(ms) {
      if (!(Number.isFinite(ms) && ms >= 0)) throw new RangeError('ms must be a non-negative number')
      hub.delayMs = ms
    },
    trimHistory(channel, keepLast) {
      if (!(Number.isInteger(keepLast) && keepLast >= 0)) throw new RangeError('keepLast must be an integer ≥ 0')
      for (const c of hub.channelsNamed(channel)) c.trim(keepLast)
    },
    revoke(subject) {
      const targets = bySubject(subject)
      hub.gate.revoke(
        subject,
        targets.flatMap((c) => (c.identity ? [c.identity.jti] : [])),
      )
      for (const conn of targets) hub.close(conn, CLOSE.token_revoked)
      return targets.length
    },
    publish(channel, event, data, { app = defaultApp, clientId = 'server' } = {}) {
      const { offset, epoch, messageId } = hub.publish(app, channel, event, data, clientId, undefined)
      return { offset, epoch, messageId }
    },
    get stats() {
      return hub.stats
    },
    on: (listener) => hub.on(listener),
    waitFor(predicate, { timeoutMs = DEFAULTS.waitForTimeoutMs } = {}) {
      return new Promise<void>((resolve, reject) => {
        const check = (event: RealtimeEvent | undefined): boolean => {
          try {
            if (!predicate(event)) return false
          } catch (err) {
            done()
            reject(err)
            return true
          }
          done()
          resolve()
          return true
        }
        const off = hub.on((event) => void check(event))
        const timer = setTimeout(() => {
          done()
          reject(new Error(`realtime.waitFor: condition not met within ${timeoutMs} ms`))
        }, timeoutMs)
        const done = () => {
          off()
          clearTimeout(timer)
        }
        check(undefined)
      })
    },
  }
}
