import { useEffect, useState } from 'react';
import type { AppInfoReply } from '../../shared/ipc';

/** The window's shell; the chat itself arrives with the desktop-app issue. */
export function App() {
  const [info, setInfo] = useState<AppInfoReply | undefined>();
  const [error, setError] = useState<string | undefined>();

  useEffect(() => {
    window.deskpilot.appInfo().then(setInfo, (reason: unknown) => setError(String(reason)));
  }, []);

  return (
    <main className="shell">
      <header className="title-bar">Deskpilot</header>
      {error === undefined ? (
        <p>{info === undefined ? 'Starting…' : `${info.name} ${info.version} on ${info.platform}`}</p>
      ) : (
        <p role="alert">{error}</p>
      )}
    </main>
  );
}
