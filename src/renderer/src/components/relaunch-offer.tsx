import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeFailure, type Failure } from '../failure';
import { ConfirmBar } from './confirm-bar';
import { FailureText } from './failure-text';

interface Props {
  /** The target app and the command main would start it with (status.relaunch). */
  offer: { app: string; command: string };
}

/**
 * A Chromium or Electron app started without accessibility shows Deskpilot an empty window.
 * The window offers to quit it and start it again with accessibility, and asks first: the
 * app's unsaved work may be lost. Main takes it from there; the banner goes once the status has
 * no offer left.
 */
export function RelaunchOffer({ offer }: Props) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const [relaunching, setRelaunching] = useState(false);
  const [problem, setProblem] = useState<Failure>();
  const relaunch = () => {
    setAsking(false);
    setRelaunching(true);
    setProblem(undefined);
    window.deskpilot.relaunchApp().then(
      () => setRelaunching(false),
      (reason: unknown) => {
        setRelaunching(false);
        setProblem(describeFailure(reason, t));
      },
    );
  };
  return (
    <div className="banner info relaunch-offer" role="region" aria-label={t('relaunch.label')}>
      <p>{t('relaunch.explain', { app: offer.app })}</p>
      {asking ? (
        <ConfirmBar
          question={t('relaunch.question', { app: offer.app })}
          confirmLabel={t('relaunch.confirm')}
          onConfirm={relaunch}
          onCancel={() => setAsking(false)}
        />
      ) : (
        <button type="button" onClick={() => setAsking(true)} disabled={relaunching}>
          {relaunching ? t('relaunch.relaunching', { app: offer.app }) : t('relaunch.button')}
        </button>
      )}
      <details className="failure-details">
        <summary>{t('relaunch.command')}</summary>
        <code>{offer.command}</code>
      </details>
      {problem === undefined ? null : (
        <p className="relaunch-problem" role="alert">
          <FailureText failure={problem} />
        </p>
      )}
    </div>
  );
}
