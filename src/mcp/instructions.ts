/** What the server tells a client's model once, at connect; each tool's description repeats its own part. */
export function serverInstructions(readOnly: boolean): string {
  const act = readOnly
    ? 'This server is read-only: it cannot act on apps, only read them.'
    : [
        '2. Act: ui_action on one id at a time (prefer set_value for fields and sliders).',
        '3. Verify: check the result. changed: true lists what changed. changed: false with success: true is a soft failure: the action ran but nothing observable changed, so re-read with ui_tree or ui_find and try another way. Scroll is the exception: it may not be observable.',
        'A failure comes back as an error with a code (NODE_NOT_FOUND lists the closest ids; PROCESS_EXITED means the app is gone); read it and recover instead of repeating the same call.',
      ].join('\n');
  return [
    'Deskpilot reads the accessibility tree of desktop apps and acts on it. Work in a loop of observe → act → verify:',
    '1. Observe: ui_apps for the pid, then ui_find (by role and name) or ui_tree (the compact tree) for node ids; ui_read for the full text of a node. Never guess ids.',
    act,
    'Long results are cut to a budget; a cut result says which rootId to ask ui_tree for next.',
  ].join('\n');
}
