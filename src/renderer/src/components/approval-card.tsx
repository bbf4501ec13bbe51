import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApprovalDecision } from '../../../shared/settings';
import { riskText } from '../../../shared/risk';
import type { ChatEntry } from '../../../shared/transcript';

type Entry = Extract<ChatEntry, { kind: 'approval' }>;

/** Stands in for the tool's name in the translated question, so the name can be bold wherever the language puts it. */
const TOOL_MARK = '\u{E000}';

interface Props {
  entry: Entry;
  onAnswer(id: string, decision: ApprovalDecision): Promise<boolean>;
}

/** An action waiting for the user; the agent is blocked until one of the three buttons is pressed. */
export const ApprovalCard = memo(function ApprovalCard({ entry, onAnswer }: Props) {
  const { t } = useTranslation();
  const [sent, setSent] = useState<ApprovalDecision | undefined>();
  const answer = (decision: ApprovalDecision) => {
    setSent(decision);
    void onAnswer(entry.id, decision).then((answered) => {
      if (!answered) setSent(undefined);
    });
  };
  const open = entry.decision === undefined && entry.expired !== true;
  // The app's name is data: marks in it are dropped, so only ours splits the sentence.
  const app = entry.app?.replaceAll(TOOL_MARK, '');
  const question = app === undefined ? t('approval.allowTool', { tool: TOOL_MARK }) : t('approval.allowToolIn', { tool: TOOL_MARK, app });
  const [before = '', after = ''] = question.split(TOOL_MARK);
  return (
    <section className={`approval-card${open ? ' open' : ''}`} aria-label={t('approval.label')}>
      {/*
        The agent waits on the user here, so the question is an alert while it is open: the log's
        polite announcements can be missed or queued behind a streaming answer. Not the buttons'
        focus: that would take the keyboard from someone typing in the composer.
      */}
      <div role={open ? 'alert' : undefined}>
        <p className="approval-title">
          {before}
          <strong>{entry.tool.replaceAll('_', ' ')}</strong>
          {after}
        </p>
        <p className="approval-summary">{entry.summary}</p>
        <p className="muted">{entry.why === undefined ? entry.reason : riskText(entry.why, { t })}</p>
      </div>
      {open ? (
        <div className="approval-buttons">
          <button type="button" className="primary" disabled={sent !== undefined} onClick={() => answer('allow_once')}>
            {t('approval.allowOnce')}
          </button>
          <button type="button" disabled={sent !== undefined} onClick={() => answer('allow_app')}>
            {t('approval.allowApp')}
          </button>
          <button type="button" className="danger" disabled={sent !== undefined} onClick={() => answer('deny')}>
            {t('approval.deny')}
          </button>
        </div>
      ) : (
        <p className="approval-decision">{entry.decision === undefined ? t('approval.ended') : t(`approval.decision.${entry.decision}`)}</p>
      )}
    </section>
  );
});
