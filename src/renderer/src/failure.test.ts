import { describe, expect, it } from 'vitest';
import { createI18n } from '../../shared/i18n/i18n';
import { errorSentence, failureText } from './failure';

describe('failures in words', () => {
  it('leads with the code’s sentence in the UI’s language and keeps the code and message', () => {
    const { t } = createI18n('pt-BR');
    expect(failureText(new Error('VALIDATION: settings:update: invalid payload: Invalid URL'), t)).toBe(
      'O pedido não era válido. (VALIDATION: settings:update: invalid payload: Invalid URL)',
    );
    expect(failureText(new Error('PROVIDER_AUTH: 401 Unauthorized'), createI18n('en').t)).toBe(
      'The model provider refused the API key. (PROVIDER_AUTH: 401 Unauthorized)',
    );
  });

  it('passes other messages through, and names unknown codes as internal problems', () => {
    const { t } = createI18n('pt-BR');
    expect(failureText(new Error('copy refused'), t)).toBe('copy refused');
    expect(failureText('NOT_A_CODE_WE_KNOW: x', t)).toBe('NOT_A_CODE_WE_KNOW: x');
    expect(errorSentence('SOMETHING_NEW', t)).toBe('O Deskpilot encontrou um problema.');
  });
});
