// One realtime connection for all the tabs of an app: `createRealtime(source, { tabs: shareAcrossTabs({ key }) })`.
// Its own entry, so an app that does not share does not ship it. See docs/realtime.md.
export { shareAcrossTabs, TABS_DEFAULTS } from './tabs/share.js'
export type {
  BroadcastChannelConstructor,
  BroadcastChannelLike,
  HubStats,
  LockManagerLike,
  RoleChange,
  ShareOptions,
  TabRole,
  TabShare,
} from './tabs/share.js'
export type { TabsContext, TabsFactory, TabsLink } from './realtime.js'
