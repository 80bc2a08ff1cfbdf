// Strings that hold a count: one phrase per plural category the language has, as
// Intl.PluralRules names them (English: one, other; Arabic: zero, one, two, few, many, other).
// t(key, { n }) picks the phrase for n; a missing category falls back to "other".
export const COUNT_STRINGS = {
  en: {
    "rv.ready": "Review ready: {decisions}, {mistakes}.",
    "count.decisions": { one: "{n} decision", other: "{n} decisions" },
    "count.mistakes": { one: "{n} mistake", other: "{n} mistakes" },
  },
  pt: {
    "rv.ready": "Análise pronta: {decisions}, {mistakes}.",
    "count.decisions": { one: "{n} decisão", other: "{n} decisões" },
    "count.mistakes": { one: "{n} erro", other: "{n} erros" },
  },
  nl: {
    "rv.ready": "Analyse klaar: {decisions}, {mistakes}.",
    "count.decisions": { one: "{n} beslissing", other: "{n} beslissingen" },
    "count.mistakes": { one: "{n} fout", other: "{n} fouten" },
  },
  ar: {
    "rv.ready": "المراجعة جاهزة: {decisions}، {mistakes}.",
    "count.decisions": {
      zero: "لا قرارات", one: "قرار واحد", two: "قراران",
      few: "{n} قرارات", many: "{n} قرارًا", other: "{n} قرار",
    },
    "count.mistakes": {
      zero: "لا أخطاء", one: "خطأ واحد", two: "خطآن",
      few: "{n} أخطاء", many: "{n} خطأً", other: "{n} خطأ",
    },
  },
  fi: {
    "rv.ready": "Analyysi valmis: {decisions}, {mistakes}.",
    "count.decisions": { one: "{n} päätös", other: "{n} päätöstä" },
    "count.mistakes": { one: "{n} virhe", other: "{n} virhettä" },
  },
};
