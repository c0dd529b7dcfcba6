/**
 * What every named item with a URL needs before its section saves (media servers, notification targets), in
 * words: 'Every target needs a name', 'Target names must be unique', 'Every target needs an http(s) URL'.
 */
export function nameAndUrlProblems(items: readonly { name: string; url: string }[], noun: string): string[] {
  const names = items.map((item) => item.name.trim());
  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1);
  return [
    ...(names.some((n) => !n) ? [`Every ${noun} needs a name`] : []),
    ...(new Set(names).size !== names.length ? [`${Noun} names must be unique`] : []),
    ...(items.some((item) => !/^https?:\/\/./i.test(item.url.trim())) ? [`Every ${noun} needs an http(s) URL`] : []),
  ];
}
