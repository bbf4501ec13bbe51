import { memo, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { riskText, type ActionPlan } from '../../../shared/risk';
import type { ApprovalDecision } from '../../../shared/settings';
import type { ChatEntry } from '../../../shared/transcript';
import { emphasize, MARK, plain, quoted, type Emphasis } from './emphasis';

type Entry = Extract<ChatEntry, { kind: 'approval' }>;

const VALUE_CHARS = 60;

interface Props {
  entry: Entry;
  onAnswer(id: string, decision: ApprovalDecision): Promise<boolean>;
}

/** "Click **Delete** in gedit?": the question in plain words, split around the bold target. Never an id. */
function question(entry: Entry, t: TFunction): Emphasis {
  // Entries saved before plans existed name the tool.
  const plan: ActionPlan = entry.plan ?? { verb: 'run', target: entry.tool.replaceAll('_', ' ') };
  const fallback = {
    click: t('approval.element'),
    set_value: t('approval.element'),
    scroll: t('approval.page'),
    drag: t('approval.element'),
    type: t('approval.focusedField'),
    fill: t('approval.element'),
    close: t('approval.window'),
    focus: entry.app ?? t('approval.otherApp'),
    key: plan.value ?? '',
    run: entry.tool,
  }[plan.verb];
  const target = plan.verb === 'key' ? (plan.value ?? '') : (plan.target ?? fallback);
  const where = entry.app === undefined || plan.verb === 'focus' ? '' : t('approval.where', { app: plain(entry.app) });
  const value = plan.value === undefined ? '' : quoted(plan.value, VALUE_CHARS);
  return emphasize(t(`approval.plan.${plan.verb}`, { target: MARK, value, where }), target);
}

/** "For this app" and "Always" widened to the whole server when the user ticked it. */
function widened(decision: ApprovalDecision, wholeServer: boolean): ApprovalDecision {
  if (!wholeServer) return decision;
  return decision === 'allow_app' ? 'allow_server_app' : decision === 'allow_always' ? 'allow_server_always' : decision;
}

/**
 * An action waiting for the user; the agent is blocked until it is answered. Deny is the
 * default: it has the focus, Enter presses it, and nothing here is red, so the quick answer
 * is the safe one. Single keys answer too (n, y or s, a), named on the card. A tool of an
 * MCP server can also be allowed always, or its whole server: those last until revoked in
 * Settings, so they take a click, never a single key.
 */
export const ApprovalCard = memo(function ApprovalCard({ entry, onAnswer }: Props) {
  const { t } = useTranslation();
  const [sent, setSent] = useState<ApprovalDecision | undefined>();
  const [wholeServer, setWholeServer] = useState(false);
  const { external } = entry;
  const deny = useRef<HTMLButtonElement>(null);
  const open = entry.decision === undefined && entry.expired !== true;
  useEffect(() => {
    if (open) deny.current?.focus();
  }, [open]);
  const answer = (choice: ApprovalDecision) => {
    const decision = widened(choice, wholeServer);
    setSent(decision);
    void onAnswer(entry.id, decision).then((answered) => {
      if (!answered) setSent(undefined);
    });
  };
  const keys = { deny: t('approval.denyKey'), once: t('approval.allowOnceKey'), app: t('approval.allowAppKey') };
  const onKeyDown = (event: KeyboardEvent) => {
    if (!open || sent !== undefined || event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.toLowerCase();
    const decision = key === keys.deny ? 'deny' : key === keys.once ? 'allow_once' : key === keys.app ? 'allow_app' : undefined;
    if (decision === undefined) return;
    event.preventDefault();
    answer(decision);
  };
  const { before, strong, after } = question(entry, t);
  const reason = entry.why === undefined ? entry.reason : riskText(entry.why, { t });
  return (
    <section className={`approval-card${open ? ' open' : ''}`} aria-label={t('approval.label')} onKeyDown={onKeyDown}>
      {/*
        The agent waits on the user here, so the question is an alert while it is open: the log's
        polite announcements can be missed or queued behind a streaming answer.
      */}
      <div role={open ? 'alert' : undefined}>
        <p className="approval-title">
          {before}
          <strong>{strong}</strong>
          {after}
        </p>
        {/* A tool from an MCP server: its arguments are what the user judges it by. */}
        {external === undefined ? null : <p className="approval-external">{t('approval.externalTool', { tool: external.tool, server: external.server })}</p>}
        {entry.plan?.verb === 'run' && entry.plan.value !== undefined ? <pre className="approval-args">{entry.plan.value}</pre> : null}
        <p className="approval-reason">{reason}</p>
      </div>
      {open ? (
        <>
          <div className="approval-buttons">
            <button type="button" ref={deny} className="primary" disabled={sent !== undefined} onClick={() => answer('deny')}>
              {t('approval.deny')} <kbd>{keys.deny.toUpperCase()}</kbd>
            </button>
            <button type="button" disabled={sent !== undefined} onClick={() => answer('allow_once')}>
              {t('approval.allowOnce')} <kbd>{keys.once.toUpperCase()}</kbd>
            </button>
            <button type="button" disabled={sent !== undefined} onClick={() => answer('allow_app')}>
              {t('approval.allowApp')} <kbd>{keys.app.toUpperCase()}</kbd>
            </button>
            {external === undefined ? null : (
              <button type="button" disabled={sent !== undefined} onClick={() => answer('allow_always')}>
                {t('approval.allowAlways')}
              </button>
            )}
          </div>
          {external === undefined ? null : (
            <>
              <label className="approval-scope">
                <input type="checkbox" checked={wholeServer} disabled={sent !== undefined} onChange={(event) => setWholeServer(event.target.checked)} />
                {t('approval.wholeServer', { server: external.server })}
              </label>
              <p className="approval-keys">{t('approval.standing')}</p>
            </>
          )}
          <p className="approval-keys">
            {t('approval.keysHint', { deny: keys.deny.toUpperCase(), once: keys.once.toUpperCase(), app: keys.app.toUpperCase() })}
          </p>
        </>
      ) : (
        <p className="approval-decision">{entry.decision === undefined ? t('approval.ended') : t(`approval.decision.${entry.decision}`)}</p>
      )}
      <details className="approval-details">
        <summary>{t('common.details')}</summary>
        <p>
          <code>
            {entry.tool} {entry.summary}
          </code>
        </p>
      </details>
    </section>
  );
});
