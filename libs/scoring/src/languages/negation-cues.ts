/** The languages read by a trained head, by ISO 639-1 code. */
export type HeadLanguage = 'es' | 'pt' | 'fr' | 'de' | 'it';
export const HEAD_LANGUAGES: readonly HeadLanguage[] = ['es', 'pt', 'fr', 'de', 'it'];

/**
 * Words that negate what follows them. The few words after one are read as negated, so "no me gusta"
 * does not count as "gusta" and "nicht gut" learns a weight of its own.
 */
export const NEGATORS: Readonly<Record<HeadLanguage, ReadonlySet<string>>> = {
  es: new Set([
    'no',
    'ni',
    'nunca',
    'jamás',
    'jamas',
    'nada',
    'nadie',
    'ningún',
    'ninguno',
    'ninguna',
    'tampoco',
    'sin',
  ]),
  pt: new Set([
    'não',
    'nao',
    'ñ',
    'n',
    'nem',
    'nunca',
    'jamais',
    'nada',
    'ninguém',
    'nenhum',
    'nenhuma',
    'sem',
  ]),
  fr: new Set(['ne', 'n', 'pas', 'jamais', 'rien', 'personne', 'aucun', 'aucune', 'sans', 'ni', 'plus']),
  de: new Set([
    'nicht',
    'kein',
    'keine',
    'keinen',
    'keinem',
    'keiner',
    'keines',
    'nie',
    'niemals',
    'nichts',
    'niemand',
    'ohne',
    'weder',
  ]),
  it: new Set([
    'non',
    'né',
    'mai',
    'niente',
    'nulla',
    'nessuno',
    'nessuna',
    'senza',
    'neanche',
    'nemmeno',
    'neppure',
  ]),
};

/** How many words after a negator it reaches (a clause break ends it sooner). */
export const NEGATION_REACH = 3;
