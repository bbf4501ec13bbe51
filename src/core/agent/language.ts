import type { AnswerLanguageChoice, Language } from '../../shared/i18n/i18n';

/** What the agent is told about languages on each ask: the UI's, and the answer setting. */
export interface LanguageSettings {
  ui: Language;
  answer: AnswerLanguageChoice;
}

export const DEFAULT_LANGUAGES: LanguageSettings = { ui: 'en', answer: 'auto' };

/*
 * Words that mark a language in short requests to a desktop assistant. Words spelt the same in
 * both (a, as, do, no, me, se, come…) are left out, so they count for neither.
 */
const PORTUGUESE = new Set(
  (
    'o os um uma uns umas de da das dos em na nas nos num numa para pra por pelo pela com sem que qual quais quando onde como porque ' +
    'não sim é são está estão esta este isto isso essa esse aquele aquela eu você vocês meu minha meus minhas seu sua ele ela ' +
    'mais menos muito também já ainda só então depois antes agora aqui ali tem ter há foi ser fazer faça faz posso pode podes ' +
    'quero preciso gostaria ajude ajuda abra abrir abre feche fechar clique clicar salve salvar digite digitar escreva escrever ' +
    'preencha preencher mude mudar ative ativar desative marque selecione escolha mostre mostrar leia ler resuma resumir diga ' +
    'envie enviar procure buscar encontre apague apagar tela janela arquivo arquivos botão campo campos documento página texto ' +
    'configurações ajustes modo escuro claro nome endereço cidade valor obrigado obrigada olá oi'
  ).split(' '),
);

const ENGLISH = new Set(
  (
    'the an of in on at to for from with without by about into what which who when where why how this that these those ' +
    'is are was were be been it its i you your my me we our they their he she his her there here not yes and or but if then ' +
    'please can could would should will do does did done have has had make set turn open close click save type fill write ' +
    'read show tell find search change enable disable select choose check uncheck summarize summarise send delete press ' +
    'file files window button field fields document page text settings dark light mode name address city value thanks hello hi'
  ).split(' '),
);

/** Letters Portuguese writes and English does not. */
const PORTUGUESE_LETTERS = /[ãõçáéíóúâêôà]/giu;

/**
 * The language of a user's message, when it is clear: English or Portuguese words counted, with
 * Portuguese's accented letters as extra evidence. Undefined when neither leads (a bare "OK",
 * a pasted id, another language): the caller falls back to the UI's language.
 */
export function detectLanguage(text: string): Language | undefined {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  let portuguese = 0;
  let english = 0;
  for (const word of words) {
    if (PORTUGUESE.has(word)) portuguese += 1;
    if (ENGLISH.has(word)) english += 1;
  }
  portuguese += Math.min(2, (text.match(PORTUGUESE_LETTERS) ?? []).length);
  if (portuguese === english) return undefined;
  return portuguese > english ? 'pt-BR' : 'en';
}

/** The language to answer in: the fixed setting, else the message's own, else the UI's. */
export function answerLanguage(text: string, settings: LanguageSettings): Language {
  if (settings.answer !== 'auto') return settings.answer;
  return detectLanguage(text) ?? settings.ui;
}
