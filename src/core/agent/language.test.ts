import { describe, expect, it } from 'vitest';
import { answerLanguage, detectLanguage } from './language';

describe('the language of a message', () => {
  it.each([
    ['Salve o arquivo e feche a janela', 'pt-BR'],
    ['o que tem nesta tela?', 'pt-BR'],
    ['Preencha o formulário com meu endereço', 'pt-BR'],
    ['ative o modo escuro', 'pt-BR'],
    ['Resuma este documento, por favor', 'pt-BR'],
    ['Clique em Salvar', 'pt-BR'],
    ['What is on this screen?', 'en'],
    ['Fill the form with my address', 'en'],
    ['turn on dark mode and save', 'en'],
    ['Summarize this document', 'en'],
    ['click Save', 'en'],
  ])('%s → %s', (text, language) => {
    expect(detectLanguage(text)).toBe(language);
  });

  it('says nothing when the message does not tell', () => {
    expect(detectLanguage('OK')).toBeUndefined();
    expect(detectLanguage('k3x9a')).toBeUndefined();
    expect(detectLanguage('')).toBeUndefined();
    // Spanish and German are neither; a stray shared word must not decide.
    expect(detectLanguage('Guten Tag')).toBeUndefined();
  });

  it('answers in the fixed language, else the message’s, else the UI’s', () => {
    expect(answerLanguage('What is this?', { ui: 'pt-BR', answer: 'auto' })).toBe('en');
    expect(answerLanguage('O que é isto?', { ui: 'en', answer: 'auto' })).toBe('pt-BR');
    expect(answerLanguage('OK', { ui: 'pt-BR', answer: 'auto' })).toBe('pt-BR');
    expect(answerLanguage('What is this?', { ui: 'en', answer: 'pt-BR' })).toBe('pt-BR');
  });
});
