// Everything one emulator instance holds, resolved from its options once.
import { DEFAULTS, DEV_APP } from './defaults.js'
import { Faults } from './faults.js'
import { createPublicUrl, type PublicUrl } from './public-url.js'
import { IdempotencyStore } from './idempotency.js'
import { RateLimiter } from './rate-limiter.js'
import { ResourceStore } from './resource-store.js'
import { createMapsModule } from './maps/module.js'
import { createPushModule, type PushModule } from './push/module.js'
import { createRealtimeModule, type RealtimeModule } from './realtime/module.js'
import { resourceRoutes, type RouteHandler } from './resource-routes.js'
import { Router, type Route } from './router.js'
import { inputCheck, type InputCheck } from './spec/rest-inputs.js'
import type { ServiceChannels, ServiceModule } from './service-module.js'
import { Sleeper } from './sleeper.js'
import { createSupportModule, type SupportModule } from './support/module.js'
import { createWebhookModule, type WebhookModule } from './webhooks/module.js'
import { type EmulatorOptions, type EmulatorStats } from './types.js'
import { SERVICES, type AccessLogLine, type EmulatorApp, type PlanLimit, type Service } from './shared-types.js'

export interface EmulatorState {
  apps: EmulatorApp[]
  appsById: Map<string, EmulatorApp>
  seed: number
  maxBodyBytes: number
  devTokenEndpoint: boolean
  onLog: ((line: AccessLogLine) => void) | undefined
  stores: Record<Service, ResourceStore>
  limiter: RateLimiter
  idempotency: IdempotencyStore
  faults: Faults
  stats: EmulatorStats
  log: AccessLogLine[]
  sleeper: Sleeper
  webhooks: WebhookModule
  modules: { maps: ServiceModule; support: SupportModule; realtime: RealtimeModule; push: PushModule }
  /** Per service: the generic resources routes plus the module's own. */
  routers: Record<Service, Router<RouteHandler>>
  /** Per service and route: the contract's check of its inputs (compiled once per process). */
  inputChecks: Record<Service, Map<Route<RouteHandler>, InputCheck>>
  /** The emulator's own origin (links in frames and webhooks; REST answers' fallback). */
  publicUrl: PublicUrl
}

export function createState(o: EmulatorOptions = {}): EmulatorState {
  const apps = resolveApps(o.apps)
  const seed = o.seed ?? DEFAULTS.seed
  if (!Number.isInteger(seed)) throw new TypeError('seed must be an integer')
  const maxBodyBytes = o.maxBodyBytes ?? DEFAULTS.maxBodyBytes
  if (!(Number.isInteger(maxBodyBytes) && maxBodyBytes > 0))
    throw new RangeError('maxBodyBytes must be a positive integer')
  const webhooks = createWebhookModule(o.webhooks, { appIds: apps.map((a) => a.appId) })
  const appsById = new Map(apps.map((a) => [a.appId, a]))
  const publicUrl = createPublicUrl(o.publicUrl)
  const ctx = { seed, webhooks, apps: appsById, publicUrl: () => publicUrl.get() }
  // Realtime first: support publishes on it and follows its presence.
  const realtime = createRealtimeModule(ctx, o.realtime)
  const channels: ServiceChannels = {
    publish: (app, channel, event, data) => realtime.publish(app, channel, event, data),
    on: (listener) => realtime.controls.on(listener),
    memberPolicy: (channel, policy) => realtime.memberPolicy(channel, policy),
    hasOpenConnection: (app, subject) => realtime.hasOpenConnection(app, subject),
    servicePresence: (app, channel, clientId, data) => realtime.servicePresence(app, channel, clientId, data),
  }
  // Web Push sits on the realtime service (its routes, its connections) and hears support's messages.
  const push = createPushModule(o.push, { seed, realtime: channels })
  const modules = {
    maps: createMapsModule(ctx),
    support: createSupportModule({ ...ctx, realtime: channels, push }, o.support),
    realtime,
    push,
  }
  const routers = {} as Record<Service, Router<RouteHandler>>
  const inputChecks = {} as EmulatorState['inputChecks']
  for (const service of SERVICES) {
    const routes = [...resourceRoutes, ...modules[service].routes, ...(service === 'realtime' ? push.routes : [])]
    routers[service] = new Router(routes)
    inputChecks[service] = new Map(routes.map((route) => [route, inputCheck(route.method, specPath(service, route))]))
  }
  return {
    publicUrl,
    inputChecks,
    webhooks,
    modules,
    routers,
    apps,
    appsById,
    seed,
    maxBodyBytes,
    devTokenEndpoint: o.devTokenEndpoint ?? DEFAULTS.devTokenEndpoint,
    onLog: o.onLog,
    stores: {
      maps: new ResourceStore('maps', seed),
      support: new ResourceStore('support', seed),
      realtime: new ResourceStore('realtime', seed),
    },
    limiter: new RateLimiter(resolvePlans(o.plans), undefined, {
      customerPlan: resolvePlan(o.customerPlan ?? DEFAULTS.customerPlan, 'customerPlan'),
    }),
    idempotency: new IdempotencyStore(),
    faults: new Faults(seed),
    stats: emptyStats(),
    log: [],
    sleeper: new Sleeper(),
  }
}

export function emptyStats(): EmulatorStats {
  return {
    requests: 0,
    tokenRequests: 0,
    rateLimited: 0,
    byService: { maps: 0, support: 0, realtime: 0 },
    writesApplied: 0,
  }
}

/** Back to the seeded state, mutating in place so references held by tests stay live. */
export function resetState(s: EmulatorState): void {
  s.faults.clear()
  Object.assign(s.stats, emptyStats())
  s.limiter.reset()
  s.idempotency.clear()
  for (const service of SERVICES) {
    s.stores[service].reset()
    s.modules[service].reset()
  }
  s.modules.push.reset()
  s.webhooks.reset()
  s.log.length = 0
}

/** The contract's path of a route: `/maps` + `/v1/places`, or `/{service}/v1/resources/{id}` for the shared ones. */
function specPath(service: Service, route: Route<RouteHandler>): string {
  const path = route.pattern.replace(/\/:(\w+)/g, '/{$1}')
  return resourceRoutes.includes(route) ? `/{service}${path}` : `/${service}${path}`
}

function resolveApps(apps: EmulatorApp[] | undefined): EmulatorApp[] {
  const list = apps ?? [DEV_APP]
  if (!Array.isArray(list) || list.length === 0) throw new TypeError('apps must be a non-empty array')
  const seen = new Set<string>()
  return list.map((app) => {
    if (typeof app?.appId !== 'string' || app.appId === '') throw new TypeError('every app needs a non-empty appId')
    if (seen.has(app.appId)) throw new TypeError(`duplicate appId ${app.appId}`)
    seen.add(app.appId)
    if (!Array.isArray(app.keys) || app.keys.length === 0)
      throw new TypeError(`app ${app.appId} needs at least one key`)
    for (const key of app.keys) {
      if (typeof key?.id !== 'string' || key.id === '' || key.id.includes(':'))
        throw new TypeError(`app ${app.appId}: key ids must be non-empty and free of ':'`)
      if (typeof key.secret !== 'string' || key.secret === '')
        throw new TypeError(`app ${app.appId}: key secrets must be non-empty`)
    }
    return { appId: app.appId, keys: app.keys.map((k) => ({ id: k.id, secret: k.secret })) }
  })
}

function resolvePlans(plans: EmulatorOptions['plans']): Record<Service, PlanLimit | false> {
  const out = {} as Record<Service, PlanLimit | false>
  for (const service of SERVICES)
    out[service] = resolvePlan(plans?.[service] ?? DEFAULTS.plans[service], `plans.${service}`)
  return out
}

function resolvePlan(plan: PlanLimit | false, name: string): PlanLimit | false {
  if (plan === false) return false
  const windowMs = plan.windowMs ?? DEFAULTS.windowMs
  if (!(Number.isFinite(plan.limit) && plan.limit >= 1)) throw new RangeError(`${name}.limit must be a number ≥ 1`)
  if (!(Number.isFinite(windowMs) && windowMs > 0)) throw new RangeError(`${name}.windowMs must be a positive number`)
  return { limit: plan.limit, windowMs }
}
