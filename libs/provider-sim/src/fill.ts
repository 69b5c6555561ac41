/** Values substituted into caption and comment templates. */
export interface FillValues {
  topic: string;
  topic2: string;
  creator: { username: string; name: string };
  /** Author of the comment replied to ('' at top level). */
  parent: string;
  place: string;
}

const PLACEHOLDER = /\{(T|t|t2|c|@c|@p|place)\}/g;

export function fill(template: string, v: FillValues): string {
  return template
    .replace(PLACEHOLDER, (_m, name: string) => {
      switch (name) {
        case 'T':
          return v.topic.charAt(0).toUpperCase() + v.topic.slice(1);
        case 't':
          return v.topic;
        case 't2':
          return v.topic2;
        case 'c':
          return v.creator.name.split(' ')[0];
        case '@c':
          return `@${v.creator.username}`;
        case '@p':
          return v.parent ? `@${v.parent}` : '';
        default:
          return v.place;
      }
    })
    .trim();
}
