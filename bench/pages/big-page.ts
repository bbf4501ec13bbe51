/**
 * A generated web page of about `nodes` accessible nodes, for the find and full-read benches
 * and the real find test: landmarks, a heading every 100 rows, and a table whose rows each
 * hold a text cell ("Row i") and a button ("Act i"), so a name past any cut is known.
 * (A local stand-in for the shared page generator; only its shape matters here.)
 */

/** Accessible nodes a row costs in Chromium and Firefox: row, two cells, a text, a button and its text. */
const NODES_PER_ROW = 6;
const ROWS_PER_SECTION = 100;

export interface BigPage {
  html: string;
  rows: number;
  /** Names of the buttons, in order: `Act 0` … */
  lastButton: string;
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function bigPage(nodes: number): BigPage {
  const rows = Math.max(1, Math.floor(nodes / NODES_PER_ROW));
  const sections: string[] = [];
  for (let start = 0; start < rows; start += ROWS_PER_SECTION) {
    const body: string[] = [];
    for (let row = start; row < Math.min(rows, start + ROWS_PER_SECTION); row += 1)
      body.push(`<tr><td>Row ${row}</td><td><button type="button">Act ${row}</button></td></tr>`);
    sections.push(`<h2>Section ${start / ROWS_PER_SECTION}</h2><table>${body.join('')}</table>`);
  }
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(`Big page ${nodes}`)}</title></head><body>` +
    `<header><h1>Big page</h1></header><nav aria-label="Sections"><a href="#end">End</a></nav>` +
    `<main>${sections.join('')}</main><footer id="end"><p>The end of the page.</p></footer></body></html>`;
  return { html, rows, lastButton: `Act ${rows - 1}` };
}
