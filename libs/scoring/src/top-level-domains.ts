/**
 * Top-level domains the link reading knows, in three kinds by how ordinary prose can look like them.
 * A compact list of the common ones (not IANA's 1,400): the generic ones, the country codes links and
 * spam use most, and the new generic ones spam registers cheaply.
 */

const list = (words: string): ReadonlySet<string> => new Set(words.split(/\s+/).filter(Boolean));

/**
 * No English (or Spanish, Portuguese, French, German, Italian) word and no common abbreviation:
 * "name.tld" written with no space reads as a link.
 */
export const OPAQUE_TLDS = list(`
  com net org edu gov int info biz xyz io co ly gl tk ml ga cf gq cc tv ws pw fm ru cn uk fr nl pl br jp
  kr ch cz sk hu ro bg gr tr ua kz vn ph pk ng za ke mx ar cl ve lk ae sa hk tw sg nz dk fi eu asia mobi
  icu cyou ltd llc gdn sbs cfd xxx
`);

/**
 * New generic domains that are English words seldom opening a sentence: "name.tld" reads as a link
 * when the name is no word of the scorer's lists ("earnmoney.online", not "great.online").
 */
export const WORD_TLDS = list(`
  online site shop store club click link space tech website stream bet casino loan cash money vip buzz
  email digital network services agency
`);

/**
 * Two-letter country codes that are words or abbreviations in the languages read ("so", "it", "me", "de",
 * "ps"), and generic words that often open a sentence written without a space ("good.love it"): a link
 * only with more to show for it (a path, www., a shortener, an obfuscated dot).
 */
export const PROSE_TLDS = list(`
  am as at be by do go id ie in is it me my no so to us ma na ms pm ps re sh st eg gg cu im mr la es de se
  si et ne ao il nu pt al er au su ir np mil uno lol love life live one best cool top win fun pro today
  world news app art blog cloud games game video music works work team page
`);

/** Link shorteners and link pages: each is a link however its dot is written ("bit*ly", "bit dot ly"). */
export const SHORTENER_HOSTS = list(`
  bit.ly bitly.com tinyurl.com t.co goo.gl cutt.ly linktr.ee ow.ly is.gd buff.ly rb.gy tiny.cc shorturl.at
  t.me wa.me rebrand.ly bl.ink lnkd.in youtu.be discord.gg amzn.to fb.me s.id v.gd shorte.st adf.ly bc.vc
  ouo.io
`);

/** Whether a written top-level domain is one this reading knows. */
export function isKnownTld(tld: string): boolean {
  return OPAQUE_TLDS.has(tld) || WORD_TLDS.has(tld) || PROSE_TLDS.has(tld);
}
