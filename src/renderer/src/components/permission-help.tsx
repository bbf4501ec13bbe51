import { useTranslation } from 'react-i18next';
import { Diagnose } from './diagnose';

/** macOS without the Accessibility grant: Deskpilot can neither read nor act, so say how to fix it. */
export function PermissionHelp({ onCheckAgain }: { onCheckAgain(): void }) {
  const { t } = useTranslation();
  const open = () => {
    window.deskpilot.openPermissionSettings().catch((error: unknown) => console.warn('could not open System Settings', error));
  };
  return (
    <section className="view permission-help" aria-labelledby="permission-heading">
      <h2 id="permission-heading">{t('permission.heading')}</h2>
      <p>{t('permission.intro')}</p>
      <ol>
        <li>{t('permission.step1')}</li>
        <li>{t('permission.step2')}</li>
        <li>{t('permission.step3')}</li>
      </ol>
      <div className="form-buttons">
        <button type="button" className="primary" onClick={open}>
          {t('permission.open')}
        </button>
        <button type="button" onClick={onCheckAgain}>
          {t('permission.checkAgain')}
        </button>
      </div>
      <Diagnose />
    </section>
  );
}
