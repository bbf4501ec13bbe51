import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { PublicSettings } from '../../../shared/settings-derive';
import { refusalText } from '../failure';
import { acceleratorOf } from './accelerator';

interface Props {
  settings: PublicSettings;
  platform: string;
  onSettings(settings: PublicSettings): void;
}

/**
 * A recorder instead of a text field for accelerator syntax: press the keys, see them, and hear
 * at once whether they work. The combination is saved as it is recorded, because only main can
 * tell whether another program holds it; a refused one leaves the working hotkey in place.
 */
export function HotkeyField({ settings, platform, onSettings }: Props) {
  const { t } = useTranslation();
  const [recording, setRecording] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  const [saved, setSaved] = useState(false);

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (!recording) return;
    // Every key is the recorder's while it listens, Esc and Tab included (Esc cancels).
    event.preventDefault();
    event.stopPropagation();
    if (event.key === 'Escape') {
      setRecording(false);
      return;
    }
    const accelerator = acceleratorOf(event, platform);
    if (accelerator === undefined) return;
    setRecording(false);
    setSaved(false);
    window.deskpilot.updateSettings({ hotkey: accelerator }).then(
      (updated) => {
        setProblem(undefined);
        setSaved(true);
        onSettings(updated);
      },
      // Main's refusal ("… is already used by another app") is addressed to the user already.
      (reason: unknown) => setProblem(refusalText(reason)),
    );
  };

  return (
    <div className="field">
      <span className="label" id="hotkey-label">
        {t('settings.hotkey')}
      </span>
      <div className="hotkey-row">
        <kbd className="hotkey-current" aria-labelledby="hotkey-label">
          {settings.hotkey}
        </kbd>
        <button
          type="button"
          className={recording ? 'recording' : undefined}
          aria-pressed={recording}
          aria-describedby="hotkey-note"
          onClick={() => setRecording((on) => !on)}
          onKeyDown={onKeyDown}
          onBlur={() => setRecording(false)}
        >
          {recording ? t('settings.recording') : t('settings.record')}
        </button>
      </div>
      {problem === undefined ? null : (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
      <p className="field-note" id="hotkey-note" role="status">
        {recording ? t('settings.recordHint') : saved ? t('settings.hotkeyTaken') : ''}
      </p>
    </div>
  );
}
