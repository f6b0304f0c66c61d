// The panel's look, adopted into the element's shadow root when the panel loads. Logical
// properties only, so `dir="rtl"` mirrors it; below DEFAULTS.narrowPx (480 px, a CSS constant
// here) it fills the screen. Colours keep 4.5:1 against their background.
import { sheet } from '@tandem/elements'

export const panelSheet = sheet(`
.panel{position:fixed;inset-block-end:80px;inset-inline-start:20px;display:flex;flex-direction:column;box-sizing:border-box;width:min(760px,calc(100vw - 40px));height:min(560px,calc(100vh - 100px));background:#fff;color:#1b1f24;border:1px solid #c4cad4;border-radius:10px;box-shadow:0 8px 30px rgb(0 0 0/.3);overflow:hidden}
@media (max-width:480px){.panel{inset:0;width:auto;height:auto;border-radius:0;border:0}}
header{display:flex;align-items:center;gap:8px;padding:4px 8px;background:#20262e;color:#fff}
h2{flex:1;margin:0 4px;font-size:16px}
h3{margin:14px 0 6px;font-size:14px}
button{font:inherit;cursor:pointer;min-height:36px;padding:4px 10px;border:1px solid #6b7385;border-radius:6px;background:#fff;color:#1b1f24}
button:disabled{color:#5b6473;cursor:progress}
.icon{min-width:44px;min-height:44px;border:0;background:transparent;color:inherit;font-size:22px;line-height:1}
.actions{display:flex;flex-wrap:wrap;gap:6px;padding:6px 8px;border-block-end:1px solid #d0d5dd}
.status{margin:0;padding:0 8px;min-height:1.4em;color:#3b4250;font-size:13px}
.tabstrip{position:relative;border-block-end:1px solid #d0d5dd}
.tablist{display:flex;overflow-x:auto;scroll-padding-inline:36px;scrollbar-width:thin}
[role=tab]{flex:none;min-height:40px;border:0;border-radius:0;border-block-end:3px solid transparent;background:none;color:#3b4250;white-space:nowrap}
[role=tab]:focus-visible{outline-offset:-5px;box-shadow:inset 0 0 0 2px #fff}
.more{position:absolute;inset-block:0 4px;display:none;place-items:center;width:24px;background:#fff;box-shadow:0 0 10px 8px #fff;font-size:22px;pointer-events:none}
.start{inset-inline-start:0}.end{inset-inline-end:0}
[data-more-start]>.start,[data-more-end]>.end{display:grid}
[role=tab][aria-selected=true]{border-color:#1f4fd1;color:#1f4fd1;font-weight:600}
.body{flex:1;min-height:0;overflow:auto}
[role=tabpanel]{padding:8px 10px}
ul{margin:0;padding:0;list-style:none}
.rows>li{padding:6px 0;border-block-end:1px solid #e4e7ec}
p{margin:0}
.line,.meta,.key,pre,summary{overflow-wrap:anywhere}
.meta,.note{color:#4a5261;font-size:13px}
.note{padding:6px 0}
.key{display:block;font:12px/1.4 ui-monospace,monospace}
.method{font-family:ui-monospace,monospace}
.path{font-family:ui-monospace,monospace}
.outcome{font-weight:600}
.ok{color:#116329}.bad,.error{color:#b3141a}.warn{color:#7a4d00}
.sub{padding-inline-start:14px;color:#3b4250;font-size:13px;list-style:disc}
.buttons{display:flex;flex-wrap:wrap;gap:6px;margin-block-start:4px}
summary{cursor:pointer;min-height:28px;font-size:13px}
pre{margin:4px 0 0;padding:6px;background:#f3f5f8;border-radius:6px;font:12px/1.4 ui-monospace,monospace;white-space:pre-wrap}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0}
.facts dt{font-weight:600}.facts dd{margin:0;overflow-wrap:anywhere}
`)
