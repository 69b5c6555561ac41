/**
 * English closed-class words: prepositions, determiners and quantifiers, pronouns, conjunctions,
 * auxiliaries and modals, particles and closed-class adverbs of place, time and degree. A fact of the
 * language, kept in one place: word clouds (`CLOUD_STOPWORDS`) and creator topics (`CLOSED_CLASS` in
 * @analyst/scoring) leave these out, each adding the few words its own reading needs.
 */
export const ENGLISH_CLOSED_CLASS_WORDS: readonly string[] = `
  aboard about above across after against ago ahead along alongside amid amidst among amongst around as aside
  astride at atop barring before behind below beneath beside besides between beyond but by circa concerning
  considering despite down during except excluding following for from in inside into like minus near nearby
  next notwithstanding of off on onto opposite out outside over past per plus regarding round save since than
  through throughout till to toward towards under underneath unlike until unto up upon versus via vs with within
  without
  a an the this that these those each every either neither some any no all both half several many much more most
  few fewer less least enough such what whatever which whichever whose another other others own same certain
  i me my mine myself you your yours yourself yourselves he him his himself she her hers herself it its itself
  we us our ours ourselves they them their theirs themselves one ones oneself who whom whoever someone somebody
  something anyone anybody anything everyone everybody everything nobody nothing none noone whatsoever
  and or nor so yet because although though while whereas whether if unless once lest whenever wherever
  am is are was were be been being have has had having do does did doing done shall should will would can could
  may might must ought need dare gonna gotta wanna
  not never ever also too very quite rather just only even still already again almost always often sometimes
  seldom rarely usually soon later now then today tonight tomorrow yesterday here there where when why how
  away back forward forth hence thus therefore however anyway anyhow somewhat somehow sometime elsewhere
  everywhere anywhere somewhere nowhere indeed perhaps maybe instead otherwise really actually literally
  basically honestly truly simply definitely probably certainly especially
`
  .trim()
  .split(/\s+/);
