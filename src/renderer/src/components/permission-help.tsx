/** macOS without the Accessibility grant: Deskpilot can neither read nor act, so say how to fix it. */
export function PermissionHelp({ onCheckAgain }: { onCheckAgain(): void }) {
  const open = () => {
    window.deskpilot.openPermissionSettings().catch((error: unknown) => console.warn('could not open System Settings', error));
  };
  return (
    <section className="view permission-help" aria-labelledby="permission-heading">
      <h2 id="permission-heading">Deskpilot needs Accessibility access</h2>
      <p>To read the app you are using and act in it, macOS must allow Deskpilot under Accessibility.</p>
      <ol>
        <li>Open System Settings → Privacy &amp; Security → Accessibility.</li>
        <li>Turn on Deskpilot (add it with + if it is not listed).</li>
        <li>Come back here and choose Check again.</li>
      </ol>
      <div className="form-buttons">
        <button type="button" className="primary" onClick={open}>
          Open Accessibility settings
        </button>
        <button type="button" onClick={onCheckAgain}>
          Check again
        </button>
      </div>
    </section>
  );
}
