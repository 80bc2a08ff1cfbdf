// The tournament page in every language. i18n.js merges these into its table.

const en = {
  "tn.title": "Tournament", "tn.standings": "Standings", "tn.player": "Player", "tn.points": "Table points",
  "tn.score": "Score", "tn.dup": "Duplicate score", "tn.house": "Against the house bots", "tn.rulings": "Rulings",
  "tn.round": "Round {n}", "tn.table": "Table {n}", "tn.housetable": "house", "tn.watch": "Watch", "tn.match": "Match",
  "tn.seed": "seed", "tn.commitment": "Seed commitment", "tn.over": "over", "tn.live": "playing",
  "tn.yourtable": "Round {round}: you sit at table {n}.", "tn.go": "Go to my seat", "tn.none": "No such tournament.",
  "tn.format.swiss": "Swiss", "tn.format.duplicate": "Duplicate", "tn.ended": "finished", "tn.running": "in progress",
};

const pt = {
  "tn.title": "Torneio", "tn.standings": "Classificação", "tn.player": "Jogador", "tn.points": "Pontos de mesa",
  "tn.score": "Pontuação", "tn.dup": "Pontuação duplicada", "tn.house": "Contra os robôs da casa", "tn.rulings": "Decisões do árbitro",
  "tn.round": "Ronda {n}", "tn.table": "Mesa {n}", "tn.housetable": "casa", "tn.watch": "Assistir", "tn.match": "Partida",
  "tn.seed": "semente", "tn.commitment": "Compromisso da semente", "tn.over": "terminada", "tn.live": "a decorrer",
  "tn.yourtable": "Ronda {round}: está na mesa {n}.", "tn.go": "Ir para o meu lugar", "tn.none": "Este torneio não existe.",
  "tn.format.swiss": "Suíço", "tn.format.duplicate": "Duplicado", "tn.ended": "terminado", "tn.running": "a decorrer",
};

const nl = {
  "tn.title": "Toernooi", "tn.standings": "Stand", "tn.player": "Speler", "tn.points": "Tafelpunten",
  "tn.score": "Score", "tn.dup": "Duplicaatscore", "tn.house": "Tegen de huisbots", "tn.rulings": "Uitspraken",
  "tn.round": "Ronde {n}", "tn.table": "Tafel {n}", "tn.housetable": "huis", "tn.watch": "Kijken", "tn.match": "Partij",
  "tn.seed": "seed", "tn.commitment": "Vastgelegde seed", "tn.over": "klaar", "tn.live": "bezig",
  "tn.yourtable": "Ronde {round}: je zit aan tafel {n}.", "tn.go": "Naar mijn plaats", "tn.none": "Dit toernooi bestaat niet.",
  "tn.format.swiss": "Zwitsers", "tn.format.duplicate": "Duplicaat", "tn.ended": "afgelopen", "tn.running": "bezig",
};

const ar = {
  "tn.title": "بطولة", "tn.standings": "الترتيب", "tn.player": "اللاعب", "tn.points": "نقاط الطاولة",
  "tn.score": "النتيجة", "tn.dup": "النتيجة المكررة", "tn.house": "مقابل روبوتات الدار", "tn.rulings": "قرارات الحَكَم",
  "tn.round": "الجولة {n}", "tn.table": "الطاولة {n}", "tn.housetable": "الدار", "tn.watch": "مشاهدة", "tn.match": "المباراة",
  "tn.seed": "البذرة", "tn.commitment": "التزام البذرة", "tn.over": "انتهت", "tn.live": "جارية",
  "tn.yourtable": "الجولة {round}: مكانك على الطاولة {n}.", "tn.go": "اذهب إلى مقعدي", "tn.none": "لا توجد بطولة بهذا المعرّف.",
  "tn.format.swiss": "سويسري", "tn.format.duplicate": "مكرر", "tn.ended": "انتهت", "tn.running": "جارية",
};

const fi = {
  "tn.title": "Turnaus", "tn.standings": "Tilanne", "tn.player": "Pelaaja", "tn.points": "Pöytäpisteet",
  "tn.score": "Pisteet", "tn.dup": "Duplikaattipisteet", "tn.house": "Talon botteja vastaan", "tn.rulings": "Tuomarin päätökset",
  "tn.round": "Kierros {n}", "tn.table": "Pöytä {n}", "tn.housetable": "talo", "tn.watch": "Katso", "tn.match": "Ottelu",
  "tn.seed": "siemen", "tn.commitment": "Siemenen sitoumus", "tn.over": "päättynyt", "tn.live": "käynnissä",
  "tn.yourtable": "Kierros {round}: paikkasi on pöydässä {n}.", "tn.go": "Omalle paikalle", "tn.none": "Tällaista turnausta ei ole.",
  "tn.format.swiss": "Sveitsiläinen", "tn.format.duplicate": "Duplikaatti", "tn.ended": "päättynyt", "tn.running": "käynnissä",
};

export const TOURNAMENT_STRINGS = { en, pt, nl, ar, fi };
