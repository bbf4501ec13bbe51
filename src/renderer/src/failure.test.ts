import { describe, expect, it } from 'vitest';
import { createI18n } from '../../shared/i18n/i18n';
import { describeFailure, errorSentence, refusalText } from './failure';

describe('failures in words', () => {
  it('says the code’s sentence in the UI’s language and folds the code, channel and schema wording into the detail', () => {
    const { t } = createI18n('pt-BR');
    expect(describeFailure({ code: 'VALIDATION', message: 'settings:update: invalid payload: Invalid URL' }, t)).toEqual({
      text: 'O pedido não era válido.',
      detail: 'VALIDATION: settings:update: invalid payload: Invalid URL',
    });
    expect(describeFailure({ code: 'PROVIDER_AUTH', message: '401', data: { status: 401 } }, createI18n('en').t).text).toBe(
      'The model provider refused the API key.',
    );
  });

  it('passes words through, and names unknown codes as internal problems', () => {
    const { t } = createI18n('pt-BR');
    expect(describeFailure(new Error('copy refused'), t)).toEqual({ text: 'copy refused' });
    // A message that merely starts like a code is words: no code is read back out of text.
    expect(describeFailure(new Error('VALIDATION: looks like a code'), t)).toEqual({ text: 'VALIDATION: looks like a code' });
    expect(describeFailure({ code: 'SOMETHING_NEW', message: 'x' }, t)).toEqual({ text: 'O Deskpilot encontrou um problema.', detail: 'SOMETHING_NEW: x' });
    expect(errorSentence('SOMETHING_NEW', t)).toBe('O Deskpilot encontrou um problema.');
  });

  it('gives main’s own words for a refusal, without the code', () => {
    expect(refusalText({ code: 'VALIDATION', message: 'Control+Alt+J is taken' })).toBe('Control+Alt+J is taken');
    expect(refusalText(new Error('copy refused'))).toBe('copy refused');
  });
});
