// The launcher's look: a small round button at the bottom of the inline start (the messenger's
// sits at the end), logical properties only, so `dir="rtl"` mirrors it.
import { LAUNCHER_CSS, sheet } from '@tandem/elements'

export const launcherSheet = sheet(`${LAUNCHER_CSS}
:host{position:fixed;inset-block-end:20px;inset-inline-start:20px;z-index:2147483001;font:14px/1.4 system-ui,sans-serif;color:#1b1f24}
.launcher{display:grid;place-items:center;width:48px;height:48px;border:0;border-radius:50%;background:#20262e;color:#fff;cursor:pointer;box-shadow:0 4px 14px rgb(0 0 0/.25)}
.launcher svg{width:26px;height:26px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}`)
