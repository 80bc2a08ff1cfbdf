// Paohuzi's arithmetic for its rules page: the huxi of a group, huxi to tun, the huxi table's rows
// and worked examples.

// Huxi of one group (PH-3), as domain/paohuzi/cards.py scores it: (small, big) per type;
// a chi scores only as 1-2-3 or 2-7-10 of one size. tests/e2e/test_web_learn.py checks the page's
// figures against that code.
const GROUP_HUXI = { ti: [9, 12], pao: [6, 9], wei: [3, 6], kan: [3, 6], peng: [1, 3], chi: [0, 0], pair: [0, 0] };
const SCORING_CHI = { "0,1,2": 3, "1,6,9": 3, "10,11,12": 6, "11,16,19": 6 };
const kindOf = (name) => (name[0] === "b" ? 10 : 0) + Number(name.slice(1)) - 1;
export function groupHuxi(group, kinds) {
  const ks = kinds.map(kindOf);
  if (group === "chi") return SCORING_CHI[[...ks].sort((a, b) => a - b).join(",")] ?? 0;
  return GROUP_HUXI[group][ks[0] >= 10 ? 1 : 0];
}
/** PH-8.3: 15-17 huxi 1 tun, then one more per 3 huxi. */
export const tunFor = (huxi) => 1 + Math.floor((huxi - 15) / 3);

/** The huxi table's rows: a small and a big example of each group type. */
export const HUXI = [
  { id: "ti", group: "ti", small: ["s3", "s3", "s3", "s3"], big: ["b3", "b3", "b3", "b3"] },
  { id: "pao", group: "pao", small: ["s8", "s8", "s8", "s8"], big: ["b8", "b8", "b8", "b8"] },
  { id: "wei", group: "wei", small: ["s5", "s5", "s5"], big: ["b5", "b5", "b5"] },
  { id: "kan", group: "kan", small: ["s4", "s4", "s4"], big: ["b4", "b4", "b4"] },
  { id: "peng", group: "peng", small: ["s9", "s9", "s9"], big: ["b9", "b9", "b9"] },
  { id: "chi123", group: "chi", small: ["s1", "s2", "s3"], big: ["b1", "b2", "b3"] },
  { id: "chi2710", group: "chi", small: ["s2", "s7", "s10"], big: ["b2", "b7", "b10"] },
  { id: "chi", group: "chi", small: ["s4", "s5", "s6"], big: ["b6", "b7", "b8"] },
  { id: "chimixed", group: "chi", small: ["s6", "s6", "b6"], big: ["s6", "b6", "b6"] },
  { id: "pair", group: "pair", small: ["s1", "s1"], big: ["b1", "b1"] },
];

/** Worked examples: whole hands, their huxi and tun (the heavenly win counts only its ti). */
export const HUXI_EXAMPLES = [
  { id: "heavenly", rule: "PH-2.6", groups: [
    { group: "ti", kinds: ["s1", "s1", "s1", "s1"] }, { group: "ti", kinds: ["s2", "s2", "s2", "s2"] }, { group: "ti", kinds: ["b3", "b3", "b3", "b3"] },
  ] },
  { id: "seven", rule: "PH-4.1", groups: [
    { group: "chi", kinds: ["s1", "s2", "s3"] }, { group: "chi", kinds: ["b2", "b7", "b10"] }, { group: "wei", kinds: ["b5", "b5", "b5"] },
    { group: "peng", kinds: ["s9", "s9", "s9"] }, { group: "kan", kinds: ["s4", "s4", "s4"] }, { group: "chi", kinds: ["s6", "s7", "s8"] },
    { group: "chi", kinds: ["b6", "b7", "b8"] },
  ] },
  { id: "four", rule: "PH-4.2", groups: [
    { group: "ti", kinds: ["b10", "b10", "b10", "b10"] }, { group: "pao", kinds: ["s3", "s3", "s3", "s3"] }, { group: "chi", kinds: ["b1", "b2", "b3"] },
    { group: "chi", kinds: ["s7", "s8", "s9"] }, { group: "chi", kinds: ["s4", "s5", "s6"] }, { group: "chi", kinds: ["s5", "b5", "b5"] },
    { group: "pair", kinds: ["s1", "s1"] },
  ] },
  { id: "short", rule: "PH-8.2", groups: [
    { group: "chi", kinds: ["s1", "s2", "s3"] }, { group: "wei", kinds: ["b5", "b5", "b5"] }, { group: "kan", kinds: ["s4", "s4", "s4"] },
    { group: "peng", kinds: ["s9", "s9", "s9"] }, { group: "peng", kinds: ["s7", "s7", "s7"] }, { group: "chi", kinds: ["b6", "b7", "b8"] },
    { group: "chi", kinds: ["s10", "b10", "b10"] },
  ] },
];
