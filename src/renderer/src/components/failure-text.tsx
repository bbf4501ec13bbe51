import { useTranslation } from 'react-i18next';
import type { Failure } from '../failure';

/** A failure's words, with its technical detail folded underneath (for a bug report, not for reading). */
export function FailureText({ failure }: { failure: Failure }) {
  const { t } = useTranslation();
  return (
    <>
      <span>{failure.text}</span>
      {failure.detail === undefined ? null : (
        <details className="failure-details">
          <summary>{t('common.details')}</summary>
          <code>{failure.detail}</code>
        </details>
      )}
    </>
  );
}
