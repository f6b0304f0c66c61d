// The launcher's look. Logical properties throughout (inset-inline-end, not right), so
// `dir="rtl"` on the element mirrors it with no rule of its own.
import { LAUNCHER_CSS, sheet } from '@tandem/elements'

export const launcherSheet = sheet(`${LAUNCHER_CSS}
:host{position:fixed;inset-block-end:20px;inset-inline-end:20px;z-index:2147483000;font:15px/1.4 system-ui,sans-serif;color:#1b1f24}
.launcher{position:relative;display:grid;place-items:center;width:56px;height:56px;border:0;border-radius:50%;background:#1f4fd1;color:#fff;cursor:pointer;box-shadow:0 4px 14px rgb(0 0 0/.25)}
.launcher svg{width:28px;height:28px;fill:currentColor}
.badge{position:absolute;inset-block-start:-4px;inset-inline-end:-4px;box-sizing:border-box;min-width:22px;height:22px;padding:0 6px;border-radius:11px;background:#b3141a;color:#fff;font-size:12px;font-weight:700;line-height:22px;text-align:center}`)
