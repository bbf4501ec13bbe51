/** Small stroke icons; always inside a control that carries the accessible name. */
const PATHS = {
  settings:
    'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm7.4-3a7.4 7.4 0 0 0-.1-1.2l2-1.6-2-3.4-2.4 1a7.6 7.6 0 0 0-2-1.2L14.5 3h-4l-.4 2.6a7.6 7.6 0 0 0-2 1.2l-2.4-1-2 3.4 2 1.6a7.4 7.4 0 0 0 0 2.4l-2 1.6 2 3.4 2.4-1a7.6 7.6 0 0 0 2 1.2l.4 2.6h4l.4-2.6a7.6 7.6 0 0 0 2-1.2l2.4 1 2-3.4-2-1.6c.1-.4.1-.8.1-1.2Z',
  trash: 'M4 7h16M9 7V4h6v3m-8 0 1 13h8l1-13',
  hide: 'M5 12h14',
  copy: 'M9 9h10v11H9zM5 15V4h10',
  send: 'M4 12 20 4l-6 16-3-7-7-1Z',
  stop: 'M7 7h10v10H7z',
  down: 'M12 5v14m-6-6 6 6 6-6',
  workflows: 'M5 6h14M5 12h9M5 18h5m8-3 3 3-3 3',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name }: { name: IconName }) {
  return (
    <svg className="icon" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
