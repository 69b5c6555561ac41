declare module 'wink-porter2-stemmer' {
  function stem(word: string): string;
  export = stem;
}
