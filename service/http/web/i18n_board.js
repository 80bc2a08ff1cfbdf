// The board beside the prompt, the table switches, the sounds and the table's own moves in a
// review, in every language. i18n.js merges these into its tables.

const en = {
  "focus.title": "On the table", "focus.last": "Last played, by {seat}", "nav.menu": "Menu",
  "last.title": "The newest line of the move log",
  "sw.title": "Your switches", "sw.nocalls": "No calls", "sw.nocalls.help": "Pass every claim at once, except a win",
  "sw.autowin": "Win automatically", "sw.autowin.help": "Declare the win as soon as it is legal",
  "auto.passed": "No calls: passed.", "auto.won": "Won automatically.",
  "rv.table.clock": "The table moved for {seat}: time ran out", "rv.table.clock.you": "The table moved for you: time ran out",
  "rv.table.away": "The table moved for {seat}: away", "rv.table.away.you": "The table moved for you: you were away",
  "rv.table.tag": "table", "rv.table.note": "Not judged: a move the table made, not a decision.",
  "rv.table.item": "Step {n}: {what}. {who}",
};

const pt = {
  "focus.title": "Na mesa", "focus.last": "Última jogada, por {seat}", "nav.menu": "Menu",
  "last.title": "A linha mais recente do registo de jogadas",
  "sw.title": "Os seus interruptores", "sw.nocalls": "Sem chamadas", "sw.nocalls.help": "Passar logo em todas as reivindicações, exceto uma vitória",
  "sw.autowin": "Ganhar automaticamente", "sw.autowin.help": "Declarar a vitória assim que for legal",
  "auto.passed": "Sem chamadas: passou.", "auto.won": "Vitória declarada automaticamente.",
  "rv.table.clock": "A mesa jogou por {seat}: o tempo acabou", "rv.table.clock.you": "A mesa jogou por si: o tempo acabou",
  "rv.table.away": "A mesa jogou por {seat}: ausente", "rv.table.away.you": "A mesa jogou por si: estava ausente",
  "rv.table.tag": "mesa", "rv.table.note": "Não avaliada: uma jogada feita pela mesa, não uma decisão.",
  "rv.table.item": "Passo {n}: {what}. {who}",
};

const nl = {
  "focus.title": "Op tafel", "focus.last": "Laatst gespeeld, door {seat}", "nav.menu": "Menu",
  "last.title": "De nieuwste regel van het zettenlogboek",
  "sw.title": "Jouw schakelaars", "sw.nocalls": "Geen claims", "sw.nocalls.help": "Pas meteen bij elke claim, behalve een winst",
  "sw.autowin": "Automatisch winnen", "sw.autowin.help": "Meld de winst zodra die is toegestaan",
  "auto.passed": "Geen claims: gepast.", "auto.won": "Automatisch gewonnen.",
  "rv.table.clock": "De tafel speelde voor {seat}: de tijd was om", "rv.table.clock.you": "De tafel speelde voor jou: de tijd was om",
  "rv.table.away": "De tafel speelde voor {seat}: afwezig", "rv.table.away.you": "De tafel speelde voor jou: je was afwezig",
  "rv.table.tag": "tafel", "rv.table.note": "Niet beoordeeld: een zet van de tafel, geen beslissing.",
  "rv.table.item": "Stap {n}: {what}. {who}",
};

const ar = {
  "focus.title": "على الطاولة", "focus.last": "آخر ما لُعب، من {seat}", "nav.menu": "القائمة",
  "last.title": "أحدث سطر في سجل الحركات",
  "sw.title": "مفاتيحك", "sw.nocalls": "بلا مطالبات", "sw.nocalls.help": "تمرير كل مطالبة فورًا، إلا الفوز",
  "sw.autowin": "الفوز تلقائيًا", "sw.autowin.help": "إعلان الفوز بمجرد أن يصبح جائزًا",
  "auto.passed": "بلا مطالبات: تم التمرير.", "auto.won": "تم إعلان الفوز تلقائيًا.",
  "rv.table.clock": "لعبت الطاولة عن {seat}: انتهى الوقت", "rv.table.clock.you": "لعبت الطاولة عنك: انتهى الوقت",
  "rv.table.away": "لعبت الطاولة عن {seat}: غائب", "rv.table.away.you": "لعبت الطاولة عنك: كنت غائبًا",
  "rv.table.tag": "الطاولة", "rv.table.note": "غير مقيَّمة: حركة قامت بها الطاولة، لا قرار.",
  "rv.table.item": "الخطوة {n}: {what}. {who}",
};

const fi = {
  "focus.title": "Pöydällä", "focus.last": "Viimeksi pelattu: {seat}", "nav.menu": "Valikko",
  "last.title": "Siirtolokin uusin rivi",
  "sw.title": "Omat kytkimesi", "sw.nocalls": "Ei vaateita", "sw.nocalls.help": "Ohita heti jokainen vaade, paitsi voitto",
  "sw.autowin": "Voita automaattisesti", "sw.autowin.help": "Ilmoita voitto heti, kun se on sallittu",
  "auto.passed": "Ei vaateita: ohitettu.", "auto.won": "Voitto ilmoitettu automaattisesti.",
  "rv.table.clock": "Pöytä siirsi pelaajan {seat} puolesta: aika loppui", "rv.table.clock.you": "Pöytä siirsi puolestasi: aika loppui",
  "rv.table.away": "Pöytä siirsi pelaajan {seat} puolesta: poissa", "rv.table.away.you": "Pöytä siirsi puolestasi: olit poissa",
  "rv.table.tag": "pöytä", "rv.table.note": "Ei arvioitu: pöydän tekemä siirto, ei päätös.",
  "rv.table.item": "Vaihe {n}: {what}. {who}",
};

export const BOARD_STRINGS = { en, pt, nl, ar, fi };
