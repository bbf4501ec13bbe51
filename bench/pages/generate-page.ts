/**
 * A generated web page of about `nodes` accessibility nodes (as Chromium exposes it over AT-SPI),
 * with the structure real big pages have: a banner, a named navigation, a main region of named
 * sections (each a heading, a paragraph, a labelled form and a table of rows with buttons), a
 * complementary sidebar and a footer. Shared by bench:compact and bench:apps' scale table, so
 * both measure the same pages. Deterministic: the same `nodes` gives the same page.
 *
 *   generatePage(20_000) → html        pageOutline(20_000) → the headings and landmarks it holds
 */

/**
 * Accessibility nodes one table row costs in Chromium: the row, three cells, their static texts
 * and a button. Measured: a page made for 20,000 nodes had 28,262 with 5 assumed here.
 */
const NODES_PER_ROW = 7;
/** Nodes a section costs besides its rows: region, heading, paragraph, form, label, entry, button, table, and their texts. */
const NODES_PER_SECTION = 13;
/** Nodes of the page frame: document, banner, h1, navigation and its links, sidebar, footer. */
const FRAME_NODES = 24;

export interface PageShape {
  sections: number;
  rowsPerSection: number;
}

/** Sections grow slowly with the page (a real long page has tens of headings, not thousands): 2 to 24. */
export function pageShape(nodes: number): PageShape {
  const target = Math.max(100, Math.floor(nodes));
  const sections = Math.min(24, Math.max(2, Math.round(target / 800)));
  const rowsPerSection = Math.max(1, Math.round((target - FRAME_NODES - sections * NODES_PER_SECTION) / sections / NODES_PER_ROW));
  return { sections, rowsPerSection };
}

export interface PageOutline {
  /** Every heading's text, in document order. */
  headings: string[];
  /** Every named landmark's name, in document order. */
  landmarks: string[];
}

/** The headings and named landmarks generatePage(nodes) holds: what a compact tree must name. */
export function pageOutline(nodes: number): PageOutline {
  const { sections } = pageShape(nodes);
  const headings = ['Generated report'];
  const landmarks = ['Site header', 'Site navigation', 'Report body'];
  for (let s = 1; s <= sections; s += 1) {
    headings.push(`Part ${s}`);
    landmarks.push(`Part ${s} section`, `Part ${s} filter`);
  }
  headings.push('Related');
  landmarks.push('Sidebar', 'Site footer');
  return { headings, landmarks };
}

export function generatePage(nodes: number): string {
  const { sections, rowsPerSection } = pageShape(nodes);
  const out: string[] = [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Generated report</title></head><body>',
    '<header aria-label="Site header"><h1>Generated report</h1></header>',
    '<nav aria-label="Site navigation"><ul>',
  ];
  for (let s = 1; s <= Math.min(sections, 6); s += 1) out.push(`<li><a href="#part-${s}">Part ${s}</a></li>`);
  out.push('</ul></nav><main aria-label="Report body">');
  let act = 0;
  for (let s = 1; s <= sections; s += 1) {
    out.push(
      `<section id="part-${s}" aria-label="Part ${s} section"><h2>Part ${s}</h2>`,
      `<p>Part ${s} lists ${rowsPerSection} measurements taken in order.</p>`,
      `<form aria-label="Part ${s} filter"><label>Filter part ${s} <input type="text" value=""></label><button type="button">Apply ${s}</button></form>`,
      `<table><tbody>`,
    );
    for (let r = 1; r <= rowsPerSection; r += 1) {
      act += 1;
      out.push(`<tr><td>Row ${s}.${r}</td><td>${(act * 37) % 1000}</td><td><button type="button">Act ${act}</button></td></tr>`);
    }
    out.push('</tbody></table></section>');
  }
  out.push(
    '</main><aside aria-label="Sidebar"><h2>Related</h2><p>See the parts above.</p></aside>',
    '<footer aria-label="Site footer"><p>End of report</p></footer></body></html>',
  );
  return out.join('\n');
}
