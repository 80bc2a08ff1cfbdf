// Quick play in the lobby, in every language. i18n.js merges these into its table.

const en = {
  "quick.title": "Quick play",
  "quick.help": "Signed in, one click finds you a table of people near your rating; if nobody comes within {s} s, house bots take the empty seats.",
  "quick.play": "Quick play: {game}", "quick.cancel": "Stop looking",
  "quick.wait": "Looking for players for {game}… {s} s",
};

const pt = {
  "quick.title": "Jogo rápido",
  "quick.help": "Com sessão iniciada, um clique encontra-lhe uma mesa de pessoas perto da sua pontuação; se ninguém chegar em {s} s, robôs da casa ocupam os lugares vazios.",
  "quick.play": "Jogo rápido: {game}", "quick.cancel": "Parar de procurar",
  "quick.wait": "À procura de jogadores para {game}… {s} s",
};

const nl = {
  "quick.title": "Snel spelen",
  "quick.help": "Ingelogd vindt één klik een tafel met mensen rond jouw rating; komt er binnen {s} s niemand, dan nemen huisbots de lege plaatsen.",
  "quick.play": "Snel spelen: {game}", "quick.cancel": "Stop met zoeken",
  "quick.wait": "Spelers zoeken voor {game}… {s} s",
};

const ar = {
  "quick.title": "لعب سريع",
  "quick.help": "بعد تسجيل الدخول، تجد لك نقرة واحدة طاولة من أشخاص قريبين من تصنيفك؛ وإن لم يأتِ أحد خلال {s} ث، تشغل روبوتات الخادم المقاعد الفارغة.",
  "quick.play": "لعب سريع: {game}", "quick.cancel": "أوقف البحث",
  "quick.wait": "البحث عن لاعبين في {game}… {s} ث",
};

const fi = {
  "quick.title": "Pikapeli",
  "quick.help": "Kirjautuneena yksi napsautus löytää sinulle pöydän ihmisiä lähellä luokitustasi; jos ketään ei tule {s} sekunnissa, talon botit ottavat tyhjät paikat.",
  "quick.play": "Pikapeli: {game}", "quick.cancel": "Lopeta etsiminen",
  "quick.wait": "Etsitään pelaajia peliin {game}… {s} s",
};

export const QUICK_STRINGS = { en, pt, nl, ar, fi };
