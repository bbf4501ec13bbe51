import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../../shared/i18n/i18n';
import type { ChatEntry } from '../../../shared/transcript';
import { ApprovalCard } from './approval-card';

type Entry = Extract<ChatEntry, { kind: 'approval' }>;

function shown(entry: Entry, language: 'en' | 'pt-BR' = 'en'): string {
  const html = renderToStaticMarkup(
    <I18nextProvider i18n={createI18n(language)}>
      <ApprovalCard entry={entry} onAnswer={() => Promise.resolve(true)} />
    </I18nextProvider>,
  );
  return html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
}

describe('ApprovalCard for "Never take my pointer or keyboard"', () => {
  // What the agent's gate asks when a step needs synthetic input (SafetyGate.checkInput).
  const entry: Entry = {
    kind: 'approval',
    id: 'a-1',
    askId: 'ask-1',
    tool: 'ui_action',
    summary: '{"action":"type","via":"keys","id":"k1","value":"hello"}',
    reason: 'needs your pointer or keyboard',
    why: { code: 'takesDevices', values: { via: 'keys' } },
    plan: { verb: 'type', target: 'Name', value: 'hello' },
    app: 'Mousepad',
  };

  it('asks about the input step itself, and says why in the window’s language', () => {
    const english = shown(entry);
    expect(english).toContain('Type “hello” into Name in Mousepad?');
    expect(english).toContain('needs your pointer or keyboard for a moment (keys)');
    expect(shown(entry, 'pt-BR')).toContain('precisa do seu ponteiro ou teclado');
  });
});
