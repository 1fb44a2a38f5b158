/**
 * The head of every HTML page dumpsleuth writes (the analysis report, the memory report): one look,
 * no script, no network (a Content-Security-Policy that allows inline style and data: images only).
 */
import { esc } from './html-escape.js';

const STYLE =
  `
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1f2328}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #d0d7de}
svg.retainers{max-width:60rem;font-size:12px}svg.retainers .bar{fill:#8250df}svg.retainers text{fill:#1f2328}
.finding{border:1px solid #d0d7de;border-left-width:6px;border-radius:6px;padding:.6rem 1rem;margin:1rem 0}
.critical{border-left-color:#8b0000}.error{border-left-color:#cf222e}.warning{border-left-color:#bf8700}.info{border-left-color:#0969da}
.input-warning{color:#9a6700}
.incomplete{background:#fff8c5;border:1px solid #d4a72c;border-radius:6px;padding:.5rem 1rem;overflow-wrap:anywhere}
.not-read{color:#57606a;overflow-wrap:anywhere}
.sev{font-weight:700;text-transform:uppercase;font-size:.8rem;letter-spacing:.04em}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #d0d7de;padding:.2rem .5rem;text-align:left;vertical-align:top}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}pre{background:#f6f8fa;padding:.5rem;overflow:auto}
svg.flame,svg.timeline,svg.states{font:11px ui-monospace,SFMono-Regular,Menlo,monospace;display:block;margin:.5rem 0}` +
  `svg.flame text{fill:#1f2328;pointer-events:none}svg.timeline .mark{fill:#cf222e;font-weight:700}
.causes ul{margin:.2rem 0;padding-left:1.4rem}.causes li{margin:.25rem 0;overflow-wrap:anywhere}.causes .sev{font-size:.75rem;margin-right:.3rem}` +
  `span.critical{color:#8b0000}span.error{color:#cf222e}span.warning{color:#9a6700}span.info{color:#0969da}` +
  `.first{background:#dafbe1;padding:.4rem .6rem;border-radius:4px}.finding h3,.finding p{overflow-wrap:anywhere}
pre.code{margin:.3rem 0;white-space:pre-wrap;overflow-wrap:anywhere}pre.code strong{color:#0550ae}
summary{cursor:pointer}.fix{background:#dafbe1;padding:.4rem .6rem;border-radius:4px}.muted{color:#57606a}
`;

/** The style of format-neutral blocks (doc-html.ts): only on pages that draw them, so other pages stay as they were. */
const DOC_STYLE = `table.doc td.num,table.doc th.num{text-align:right;white-space:nowrap}table.doc td{overflow-wrap:break-word}
pre.tree{white-space:pre;overflow:auto}ul.details{margin:.1rem 0 .4rem;color:#57606a;overflow-wrap:anywhere}ol.doc li,ul.doc li{margin:.2rem 0}
h3{font-size:1rem;margin:1.2rem 0 .3rem}`;

/** The page's opening lines, up to and with `<body>`: its title (raw, escaped here) and its style. */
export function pageHead(title: string, blocks: boolean): string[] {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'; img-src data:">',
    `<title>${esc(title)}</title><style>${STYLE}${blocks ? DOC_STYLE : ''}</style></head><body>`,
  ];
}
