// createEmulator: the request entry point (routing by prefix, CORS, request ids, access log,
// error boundary) around the per-service pipeline. No listening here, so it can be embedded.
import { asyncapi, openapi } from '@tandem/contract/spec'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'
import { mintToken } from '@tandem/server'
import { DEFAULTS } from './defaults.js'
import { createDevTokenEndpoint } from './dev-token.js'
import { HttpError } from './http-errors.js'
import {
  ClientGoneError,
  parseUrl,
  requestIdFor,
  sendError,
  sendJson,
  sendPreflight,
  setCommonHeaders,
} from './http-utils.js'
import { handleServiceRequest, type ServiceRequest } from './service-pipeline.js'
import { createState, resetState, type EmulatorState } from './state.js'
import { type EmulatorCore, type EmulatorOptions, type MintOptions } from './types.js'
import { SERVICES, type AccessLogLine, type Service } from './shared-types.js'

type Target =
  | { kind: 'service'; service: Service; path: string }
  | { kind: 'token' }
  | { kind: 'spec'; document: object }
  | { kind: 'none' }

/** The contract, served as it is published (the playground links to it). */
const SPECS: Record<string, object> = { '/openapi.json': openapi, '/asyncapi.json': asyncapi }

export function createEmulator(options: EmulatorOptions = {}): EmulatorCore {
  return createEmulatorWithState(options).core
}

/** @internal For startEmulator, which also needs the state (to cut injected delays on close). */
export function createEmulatorWithState(options: EmulatorOptions): { core: EmulatorCore; state: EmulatorState } {
  const state = createState(options)
  const devApp = state.apps[0]
  const devToken = state.devTokenEndpoint && devApp ? createDevTokenEndpoint(devApp) : undefined

  const handle = (req: IncomingMessage, res: ServerResponse, next?: () => void): void => {
    const started = performance.now()
    const { path, query } = parseUrl(req.url)
    const target = classify(path, devToken !== undefined)
    if (target.kind === 'none' && next) return next()

    const requestId = requestIdFor(req)
    setCommonHeaders(res, requestId)
    state.stats.requests++
    const sr: ServiceRequest | undefined =
      target.kind === 'service' ? { req, res, requestId, service: target.service, path: target.path, query } : undefined
    if (target.kind === 'service') state.stats.byService[target.service]++
    if (target.kind === 'token') state.stats.tokenRequests++
    res.once('close', () => {
      const line: AccessLogLine = {
        time: new Date().toISOString(),
        requestId,
        method: req.method ?? 'GET',
        path: path.length > 2048 ? `${path.slice(0, 2048)}…` : path,
        status: res.writableFinished ? res.statusCode : 0,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        ...(sr ? { service: sr.service } : {}),
        ...(sr?.app ? { app: sr.app } : {}),
      }
      appendLog(state, line)
    })

    const run = async (): Promise<void> => {
      if (req.method === 'OPTIONS') return sendPreflight(res, DEFAULTS.corsMaxAgeSeconds)
      if (target.kind === 'token' && devToken) return devToken(req, res, requestId, state.faults.takeTokenFault())
      if (target.kind === 'spec') return sendJson(res, 200, target.document)
      if (sr) return handleServiceRequest(state, sr)
      throw new HttpError(
        404,
        'not_found',
        'No such endpoint. Services live under /maps/v1, /support/v1 and /realtime/v1; the contract is /openapi.json and /asyncapi.json.',
      )
    }
    run().catch((err: unknown) => fail(res, requestId, err))
  }

  const core: EmulatorCore = {
    handle,
    attach(server: Server): void {
      state.publicUrl.listen(server)
      for (const service of SERVICES) state.modules[service].attach?.(server)
    },
    realtime: state.modules.realtime.controls,
    webhooks: state.webhooks.controls,
    push: state.modules.push.controls,
    uploads: state.modules.support.uploads,
    faults: state.faults,
    stats: state.stats,
    log: state.log,
    apps: state.apps,
    mintToken: (o?: MintOptions) => mintFor(state, o),
    reset: () => resetState(state),
  }
  return { core, state }
}

function classify(path: string, tokenEndpoint: boolean): Target {
  if (tokenEndpoint && path === DEFAULTS.devTokenPath) return { kind: 'token' }
  const document = SPECS[path]
  if (document) return { kind: 'spec', document }
  for (const service of SERVICES) {
    const prefix = `/${service}`
    if (path === prefix || path.startsWith(`${prefix}/`))
      return { kind: 'service', service, path: path.slice(prefix.length) }
  }
  return { kind: 'none' }
}

function fail(res: ServerResponse, requestId: string, err: unknown): void {
  if (err instanceof ClientGoneError) return
  if (err instanceof HttpError) return sendError(res, requestId, err)
  // Never rethrow: one bad request must not take the emulator down.
  console.error(`[tandem-emulator] internal error (${requestId}):`, err)
  if (res.headersSent) {
    res.destroy()
    return
  }
  sendError(res, requestId, new HttpError(500, 'internal_error', 'The emulator failed to handle this request.'))
}

function appendLog(state: EmulatorState, line: AccessLogLine): void {
  state.log.push(line)
  if (state.log.length > DEFAULTS.logSize) state.log.splice(0, state.log.length - DEFAULTS.logSize)
  try {
    state.onLog?.(line)
  } catch (err) {
    console.error('[tandem-emulator] onLog threw:', err)
  }
}

async function mintFor(state: EmulatorState, o: MintOptions = {}): Promise<string> {
  const app = o.appId === undefined ? state.apps[0] : state.appsById.get(o.appId)
  const key = app?.keys[0]
  if (!app || !key) throw new Error(`unknown app ${o.appId ?? ''}`)
  const { token } = await mintToken({
    appId: app.appId,
    keyId: key.id,
    secret: key.secret,
    subject: o.subject ?? DEFAULTS.devSubject,
    scope: o.scope ?? [...DEFAULTS.devScope],
    ...(o.profile !== undefined ? { profile: o.profile } : {}),
    ...(o.ttlSeconds !== undefined ? { ttlSeconds: o.ttlSeconds } : {}),
    ...(o.now !== undefined ? { now: o.now } : {}),
  })
  return token
}
