// The ratings pages in every language: the leaderboard per game and a player's profile with
// its rating chart. i18n.js merges these into its table.

const en = {
  "rate.lobby": "Rated (signed in, against house bots of different levels)",
  "rate.change": "Your rating: {rating} ({change}).",
  "rate.title": "Leaderboard", "rate.games": "Games", "rate.player": "Player", "rate.rating": "Rating",
  "rate.games.played": "Rated games", "rate.provisional": "provisional", "rate.none": "No rated results yet.",
  "rate.unrated": "No rated results under this name.", "rate.bot": "Bot ({level})",
  "rate.help": "Rated games are played signed in against the house bots. The rating is a cautious estimate: it is provisional until it settles.",
  "rate.chart": "Rating after each of {n} rated games; now {last}.", "rate.mine": "My ratings", "rate.board": "Leaderboard",
};

const pt = {
  "rate.lobby": "Pontuado (com sessão iniciada, contra robôs da casa de níveis diferentes)",
  "rate.change": "A sua pontuação: {rating} ({change}).",
  "rate.title": "Classificação", "rate.games": "Jogos", "rate.player": "Jogador", "rate.rating": "Pontuação",
  "rate.games.played": "Jogos pontuados", "rate.provisional": "provisória", "rate.none": "Ainda não há resultados pontuados.",
  "rate.unrated": "Não há resultados pontuados com este nome.", "rate.bot": "Robô ({level})",
  "rate.help": "Os jogos pontuados jogam-se com sessão iniciada contra os robôs da casa. A pontuação é uma estimativa prudente: é provisória até estabilizar.",
  "rate.chart": "Pontuação após cada um dos {n} jogos pontuados; agora {last}.", "rate.mine": "As minhas pontuações", "rate.board": "Classificação",
};

const nl = {
  "rate.lobby": "Gewaardeerd (ingelogd, tegen huisbots van verschillende niveaus)",
  "rate.change": "Je rating: {rating} ({change}).",
  "rate.title": "Ranglijst", "rate.games": "Spellen", "rate.player": "Speler", "rate.rating": "Rating",
  "rate.games.played": "Gewaardeerde spellen", "rate.provisional": "voorlopig", "rate.none": "Nog geen gewaardeerde uitslagen.",
  "rate.unrated": "Geen gewaardeerde uitslagen onder deze naam.", "rate.bot": "Bot ({level})",
  "rate.help": "Gewaardeerde spellen speel je ingelogd tegen de bots van het huis. De rating is een voorzichtige schatting: voorlopig tot hij stabiel is.",
  "rate.chart": "Rating na elk van {n} gewaardeerde spellen; nu {last}.", "rate.mine": "Mijn ratings", "rate.board": "Ranglijst",
};

const ar = {
  "rate.lobby": "مصنَّف (بعد تسجيل الدخول، ضد روبوتات الخادم بمستويات مختلفة)",
  "rate.change": "تصنيفك: {rating} ({change}).",
  "rate.title": "لوحة الترتيب", "rate.games": "الألعاب", "rate.player": "اللاعب", "rate.rating": "التصنيف",
  "rate.games.played": "الألعاب المصنَّفة", "rate.provisional": "مؤقت", "rate.none": "لا توجد نتائج مصنَّفة بعد.",
  "rate.unrated": "لا توجد نتائج مصنَّفة بهذا الاسم.", "rate.bot": "روبوت ({level})",
  "rate.help": "تُلعب الألعاب المصنَّفة بعد تسجيل الدخول ضد روبوتات الخادم. التصنيف تقدير حذر: يبقى مؤقتًا حتى يستقر.",
  "rate.chart": "التصنيف بعد كل واحدة من {n} ألعاب مصنَّفة؛ الآن {last}.", "rate.mine": "تصنيفاتي", "rate.board": "لوحة الترتيب",
};

const fi = {
  "rate.lobby": "Luokiteltu (kirjautuneena, eritasoisia talon botteja vastaan)",
  "rate.change": "Luokituksesi: {rating} ({change}).",
  "rate.title": "Tulostaulu", "rate.games": "Pelit", "rate.player": "Pelaaja", "rate.rating": "Luokitus",
  "rate.games.played": "Luokitellut pelit", "rate.provisional": "alustava", "rate.none": "Ei vielä luokiteltuja tuloksia.",
  "rate.unrated": "Tällä nimellä ei ole luokiteltuja tuloksia.", "rate.bot": "Botti ({level})",
  "rate.help": "Luokitellut pelit pelataan kirjautuneena talon botteja vastaan. Luokitus on varovainen arvio: se on alustava, kunnes se vakiintuu.",
  "rate.chart": "Luokitus jokaisen {n} luokitellun pelin jälkeen; nyt {last}.", "rate.mine": "Omat luokitukset", "rate.board": "Tulostaulu",
};

export const RATING_STRINGS = { en, pt, nl, ar, fi };
