// The panel's look, adopted into the element's shadow root when the panel loads. Logical
// properties only (inline/block, start/end), so `dir="rtl"` mirrors it; below DEFAULTS.narrowPx
// (480 px, a CSS constant here) it fills the screen.
import { sheet } from '@tandem/elements'

export const panelSheet = sheet(`
.panel{position:fixed;inset-block-end:88px;inset-inline-end:20px;display:flex;flex-direction:column;box-sizing:border-box;width:min(380px,calc(100vw - 40px));height:min(600px,calc(100vh - 108px));background:#fff;color:#1b1f24;border-radius:12px;box-shadow:0 8px 30px rgb(0 0 0/.3);overflow:hidden}
@media (max-width:480px){.panel{inset:0;width:auto;height:auto;border-radius:0}}
header{display:flex;align-items:center;gap:4px;padding:6px 8px;background:#1f4fd1;color:#fff}
h2{flex:1;margin:0 8px;font-size:17px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
h3{margin:0 0 8px;font-size:17px}
button{font:inherit;cursor:pointer}
.icon{min-width:44px;min-height:44px;border:0;border-radius:8px;background:transparent;color:inherit;font-size:24px;line-height:1}
.tabs{display:flex;border-block-end:1px solid #d0d5dd}
.tabs button{flex:1;min-height:44px;border:0;border-block-end:3px solid transparent;background:none;color:#3b4250}
.tabs [aria-pressed=true]{border-color:#1f4fd1;color:#1f4fd1;font-weight:600}
.body{display:flex;flex:1;min-height:0}
.view{flex:1;min-height:0;overflow:auto;padding:12px}
.thread{display:flex;flex-direction:column;padding:0}
ul,ol{margin:0;padding:0;list-style:none}
.item{display:block;box-sizing:border-box;width:100%;min-height:44px;padding:10px 8px;border:0;border-block-end:1px solid #e4e7ec;background:none;color:inherit;text-align:start}
.item strong{display:block}
.preview{display:block;overflow:hidden;color:#4a5261;font-size:14px;text-overflow:ellipsis;white-space:nowrap}
.count{display:inline-block;margin-block-start:4px;padding:0 8px;border-radius:10px;background:#b3141a;color:#fff;font-size:12px;font-weight:700}
.primary{min-height:44px;padding:8px 14px;border:0;border-radius:8px;background:#1f4fd1;color:#fff;font-weight:600}
.primary:disabled{background:#5b6473}
.link{min-height:44px;border:0;background:none;color:#1f4fd1;text-decoration:underline}
.note{color:#4a5261}
.push{display:flex;flex-wrap:wrap;align-items:center;gap:0 8px;margin-block:8px}
.push .note{margin:0}
.error{flex-basis:100%;margin:0;color:#b3141a}
.messages{flex:1;overflow:auto;padding:12px}
.msg{box-sizing:border-box;max-width:85%;margin-block:6px;padding:8px 10px;border-radius:10px;background:#eef1f6;white-space:pre-wrap;overflow-wrap:anywhere}
.msg.mine{margin-inline-start:auto;background:#1f4fd1;color:#fff}
.who{display:block;font-size:12px;font-weight:600}
.typing{min-height:1.4em;margin:0;padding:0 12px;color:#4a5261;font-size:14px}
.composer{display:flex;flex-wrap:wrap;gap:8px;padding:10px;border-block-start:1px solid #d0d5dd}
.attach svg{width:24px;fill:currentColor}
.primary[aria-disabled=true]{background:#5b6473}
.dropping{outline:3px dashed #1f4fd1;outline-offset:-3px}
.chips{display:flex;flex-wrap:wrap;flex-basis:100%;min-width:0;gap:6px}
.chip{display:flex;align-items:center;gap:6px;box-sizing:border-box;max-width:100%;min-width:0;padding-inline-start:6px;border:1px solid #d0d5dd;border-radius:8px;font-size:14px}
.chip canvas{width:40px;height:40px;border-radius:4px}
.chip .name{min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.size{margin-inline-start:6px;color:#4a5261;font-size:12px;white-space:nowrap}
.mine .size{color:inherit}
.sending{flex-basis:100%}
.upload{display:flex;align-items:center;gap:8px}
.upload progress{flex:1;min-width:0}
.files li{margin-block-start:6px}
.files a{color:inherit}
.thumb{display:inline-block;max-width:100%}
.thumb canvas{display:block;max-width:100%;height:auto;border-radius:6px;background:#d0d5dd}
textarea,input{flex:1;min-width:0;min-height:44px;box-sizing:border-box;padding:8px;border:1px solid #6b7385;border-radius:8px;font:inherit;resize:none}
.search label{display:block;margin-block-end:6px;font-weight:600}
.row{display:flex;gap:8px}
.article{white-space:pre-wrap;overflow-wrap:anywhere}
.article.md{white-space:normal;line-height:1.5}
.md :is(p,ul,ol,pre,blockquote,.table){margin-block:0 10px}
.md :is(ul,ol){padding-inline-start:22px;list-style:revert}
.md :is(h4,h5,h6){margin-block:14px 6px;font-size:15px}
.md a{color:#1f4fd1}
.md :is(code,pre){border-radius:4px;background:#eef1f6}
.md :is(pre,.plain){padding:8px;white-space:pre-wrap}
.md blockquote{margin-inline:0;padding-inline-start:10px;border-inline-start:3px solid #d0d5dd}
.md .image{font-style:italic}
.md .table{overflow-x:auto}
.md :is(th,td){padding:4px 8px;border:1px solid #d0d5dd}
`)
