import { memo, useState } from 'react';
import type { ApprovalDecision } from '../../../shared/settings';
import type { ChatEntry } from '../../../shared/transcript';

type Entry = Extract<ChatEntry, { kind: 'approval' }>;

const DECISION_TEXT: Record<ApprovalDecision, string> = {
  allow_once: 'Allowed once',
  allow_app: 'Allowed for this app',
  deny: 'Denied',
};

interface Props {
  entry: Entry;
  onAnswer(id: string, decision: ApprovalDecision): Promise<boolean>;
}

/** An action waiting for the user; the agent is blocked until one of the three buttons is pressed. */
export const ApprovalCard = memo(function ApprovalCard({ entry, onAnswer }: Props) {
  const [sent, setSent] = useState<ApprovalDecision | undefined>();
  const answer = (decision: ApprovalDecision) => {
    setSent(decision);
    void onAnswer(entry.id, decision).then((answered) => {
      if (!answered) setSent(undefined);
    });
  };
  const open = entry.decision === undefined && entry.expired !== true;
  return (
    <section className={`approval-card${open ? ' open' : ''}`} aria-label="Approval needed">
      {/*
        The agent waits on the user here, so the question is an alert while it is open: the log's
        polite announcements can be missed or queued behind a streaming answer. Not the buttons'
        focus: that would take the keyboard from someone typing in the composer.
      */}
      <div role={open ? 'alert' : undefined}>
        <p className="approval-title">
          Allow <strong>{entry.tool.replaceAll('_', ' ')}</strong>
          {entry.app === undefined ? '' : ` in ${entry.app}`}?
        </p>
        <p className="approval-summary">{entry.summary}</p>
        <p className="muted">{entry.reason}</p>
      </div>
      {open ? (
        <div className="approval-buttons">
          <button type="button" className="primary" disabled={sent !== undefined} onClick={() => answer('allow_once')}>
            Allow once
          </button>
          <button type="button" disabled={sent !== undefined} onClick={() => answer('allow_app')}>
            Allow for this app
          </button>
          <button type="button" className="danger" disabled={sent !== undefined} onClick={() => answer('deny')}>
            Deny
          </button>
        </div>
      ) : (
        <p className="approval-decision">{entry.decision === undefined ? 'No longer waiting: the request ended.' : DECISION_TEXT[entry.decision]}</p>
      )}
    </section>
  );
});
