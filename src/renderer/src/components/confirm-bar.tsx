import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  question: string;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
}

/** An inline yes/no that takes focus (so Esc and Tab stay in it) instead of a blocking window.confirm. */
export function ConfirmBar({ question, confirmLabel, onConfirm, onCancel }: Props) {
  const cancel = useRef<HTMLButtonElement>(null);
  const { t } = useTranslation();
  useEffect(() => cancel.current?.focus(), []);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    // Marked handled, so the window-wide Esc (stop or hide) leaves it alone.
    event.preventDefault();
    onCancel();
  };
  return (
    <div className="confirm-bar" role="alertdialog" aria-label={question} onKeyDown={onKeyDown}>
      <span>{question}</span>
      <button type="button" className="danger" onClick={onConfirm}>
        {confirmLabel}
      </button>
      <button type="button" ref={cancel} onClick={onCancel}>
        {t('common.cancel')}
      </button>
    </div>
  );
}
