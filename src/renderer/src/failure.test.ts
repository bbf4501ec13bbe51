import { describe, expect, it } from 'vitest';
import { createI18n } from '../../shared/i18n/i18n';
import { describeFailure, errorSentence } from './failure';

describe('failures in words', () => {
  it('says the code’s sentence in the UI’s language and folds the code, channel and schema wording into the detail', () => {
    const { t } = createI18n('pt-BR');
    expect(describeFailure(new Error('VALIDATION: settings:update: invalid payload: Invalid URL'), t)).toEqual({
      text: 'O pedido não era válido.',
      detail: 'VALIDATION: settings:update: invalid payload: Invalid URL',
    });
    expect(describeFailure(new Error('PROVIDER_AUTH: 401'), createI18n('en').t).text).toBe('The model provider refused the API key.');
  });

  it('passes words through, and names unknown codes as internal problems', () => {
    const { t } = createI18n('pt-BR');
    expect(describeFailure(new Error('copy refused'), t)).toEqual({ text: 'copy refused' });
    expect(describeFailure('SOMETHING_NEW: x', t)).toEqual({ text: 'O Deskpilot encontrou um problema.', detail: 'SOMETHING_NEW: x' });
    expect(errorSentence('SOMETHING_NEW', t)).toBe('O Deskpilot encontrou um problema.');
  });
});
