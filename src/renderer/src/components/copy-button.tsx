import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from './icons';

/** The async Clipboard API, or the old selection copy where it is refused (no focus, no permission). */
async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'offscreen';
    document.body.append(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    if (!copied) throw new Error('copy refused');
  }
}

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const { t } = useTranslation();
  useEffect(() => {
    if (state === 'idle') return undefined;
    const timer = setTimeout(() => setState('idle'), 1500);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <button
      type="button"
      className="icon-button copy-button"
      aria-label={label}
      title={state === 'copied' ? t('chat.copied') : state === 'failed' ? t('chat.copyFailed') : t('chat.copy')}
      onClick={() =>
        void copyText(text).then(
          () => setState('copied'),
          () => setState('failed'),
        )
      }
    >
      <Icon name="copy" />
      <span className="copy-state" role="status">
        {state === 'copied' ? t('chat.copied') : state === 'failed' ? t('chat.copyFailed') : ''}
      </span>
    </button>
  );
}
