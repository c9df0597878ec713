/**
 * The pseudo-locale's text: every Latin letter swapped for an accented or look-alike one and the
 * text made about 40 % longer, so that a string which never went through a translation (plain
 * ASCII letters) is easy to find, and a layout too tight for a long German word shows.
 */
const LOOK_ALIKES: Record<string, string> = {
  a: 'á',
  b: 'ƀ',
  c: 'ç',
  d: 'ď',
  e: 'é',
  f: 'ƒ',
  g: 'ĝ',
  h: 'ĥ',
  i: 'í',
  j: 'ĵ',
  k: 'ķ',
  l: 'ĺ',
  m: 'ɱ',
  n: 'ñ',
  o: 'ó',
  p: 'þ',
  q: 'ǫ',
  r: 'ŕ',
  s: 'š',
  t: 'ţ',
  u: 'ú',
  v: 'ṽ',
  w: 'ŵ',
  x: 'ẋ',
  y: 'ý',
  z: 'ž',
  A: 'Á',
  B: 'Ɓ',
  C: 'Ç',
  D: 'Ď',
  E: 'É',
  F: 'Ƒ',
  G: 'Ĝ',
  H: 'Ĥ',
  I: 'Í',
  J: 'Ĵ',
  K: 'Ķ',
  L: 'Ĺ',
  M: 'Ṁ',
  N: 'Ñ',
  O: 'Ó',
  P: 'Þ',
  Q: 'Ǫ',
  R: 'Ŕ',
  S: 'Š',
  T: 'Ţ',
  U: 'Ú',
  V: 'Ṽ',
  W: 'Ŵ',
  X: 'Ẋ',
  Y: 'Ý',
  Z: 'Ž',
};

/** The share of length added, as a translation into German often adds. */
const GROWTH = 0.4;

export function pseudoText(text: string): string {
  const letters = text.replace(/[A-Za-z]/g, (letter) => LOOK_ALIKES[letter] ?? letter);
  const words = text.match(/[A-Za-z]+/g);
  if (!words) return letters;
  // The padding goes inside the text, after its last word, so a sentence keeps its full stop last.
  const padding = '·'.repeat(Math.ceil(words.join('').length * GROWTH));
  return letters.replace(/([^\s.,:;!?)]+)([\s.,:;!?)]*)$/u, `$1${padding}$2`);
}
