// MCR's rules in every language, our own wording of docs/rules/mcr.md, every item under its rule
// id (the ids the server's refusals and audit cite). The game's module hands them to the rules page
// and to ruleText as `rules`.

const MC_EN = {
  title: "Chinese Official Mahjong — how the table plays",
  intro: "Four players build four sets and a pair (or a special hand) worth at least eight points. The fan table of the official rules scores the hand. Each rule below has an id the table cites.",
  sections: [
    { h: "The tiles", items: [
      ["MC-1.1", "Three suits — characters, bamboo and dots, one to nine — plus the four winds and three dragons, four copies of each, and eight single flowers: 144 tiles."],
      ["MC-1.2", "Every physical tile has its own number, so each copy is traceable in the log."],
    ] },
    { h: "Dealing", items: [
      ["MC-2.1", "Seats 0 to 3 play in that order."],
      ["MC-2.2", "The seed of the deal picks the dealer and builds the wall; both can be checked at the end."],
      ["MC-2.3", "Outside a match the round wind is East; in a match it is the wind MC-6.2 gives. The dealer sits East, then South, West and North follow in turn order."],
      ["MC-2.4", "The dealer takes 14 tiles and the others 13, from the front of the wall. Flowers are laid out at once and replaced from the back of the wall, dealer first."],
      ["MC-2.5", "Each flower adds one point, but only to a hand that already makes eight points without them."],
    ] },
    { h: "A turn", items: [
      ["MC-3.1", "Draw a tile from the front of the wall, then discard one. The table asks you to confirm the discard."],
      ["MC-3.2", "Any other player may claim a discard to win, to pung or to kong; only the next player may chow. All answers are gathered first: a win beats pung or kong, which beat chow, and ties go to the player closest after the discarder."],
      ["MC-3.3", "On your own turn you may declare a concealed kong (four in hand) or add the fourth tile to your exposed pung. A kong draws a replacement from the back of the wall, and is only allowed while one is left."],
      ["MC-3.4", "A tile added to a pung can be robbed: another player may win on it. A concealed kong cannot be robbed."],
      ["MC-3.5", "After a chow or pung you discard first; a kong must wait for a later turn."],
      ["MC-3.6", "When the player on turn cannot draw, the wall is exhausted and the deal is drawn."],
      ["MC-3.7", "From ruleset mcr/2: the discard made after the last tile of the wall was drawn can only be claimed to win on it, never for a chow, pung or kong. Deals played under mcr/1 keep their own rule."],
    ] },
    { h: "Winning and scoring", items: [
      ["MC-4.1", "Winning shapes: four sets and a pair, seven pairs, seven shifted pairs, thirteen orphans, honours and knitted tiles, and the knitted straight."],
      ["MC-4.2", "The hand scores the best total the official fan table allows, with its exclusion rules: winds, dragons, concealed pungs, kongs, waits and special winning moments all count."],
      ["MC-4.3", "A win needs eight points before flowers; flowers are added after that."],
      ["MC-4.4", "Self-drawn: every opponent pays 8 plus the total. On a discard (or a robbed kong) the discarder pays 8 plus the total and the other two pay 8."],
      ["MC-4.5", "You may pass up a win. A claimed win that is not a real winning hand is refused and changes nothing."],
      ["MC-4.6", "From ruleset mcr/2: Out with Replacement Tile counts only when the winning tile is the kong's own replacement; a win on a tile that replaced a flower scores as self-drawn without it. Under mcr/1 it counted."],
    ] },
    { h: "What you can see", items: [
      ["MC-5.1", "Everyone sees discards, exposed sets, flowers, how many concealed kongs each player has (not which), hand sizes, the wall count and whose turn it is."],
      ["MC-5.2", "Only you see your hand, your drawn tile, your claim options and your answers until the window closes."],
      ["MC-5.3", "The wall order, the other hands, concealed kong tiles and the seed stay hidden until the end."],
    ] },
    { h: "Matches", items: [
      ["MC-6.1", "A match is a round (four hands), a game (four rounds, sixteen hands) or a number of hands. A Mahjong match has no target score."],
      ["MC-6.2", "The round wind of hand k (counting from 0) is the wind of round k ÷ 4: East for the first four hands, then South, West and North."],
      ["MC-6.3", "The first hand's dealer comes from its seed. After every hand, won or drawn, the next seat deals, and the seat winds follow the dealer. Players keep their seats between rounds."],
      ["MC-6.4", "Your running score is the sum of your payments over the hands played."],
    ] },
  ],
};

const MC_PT = {
  title: "Mahjong Oficial Chinês — como se joga nesta mesa",
  intro: "Quatro jogadores formam quatro conjuntos e um par (ou uma mão especial) que valham pelo menos oito pontos. A tabela oficial de fans pontua a mão. Cada regra tem um código que a mesa cita.",
  sections: [
    { h: "As peças", items: [
      ["MC-1.1", "Três naipes — caracteres, bambu e círculos, de um a nove — mais os quatro ventos e os três dragões, quatro de cada, e oito flores únicas: 144 peças."],
      ["MC-1.2", "Cada peça física tem o seu número, para se seguir cada exemplar no registo."],
    ] },
    { h: "A distribuição", items: [
      ["MC-2.1", "Os lugares 0 a 3 jogam por esta ordem."],
      ["MC-2.2", "A semente escolhe o distribuidor e monta a muralha; ambos se verificam no fim."],
      ["MC-2.3", "Fora de uma partida, o vento da ronda é Leste; numa partida, é o vento dado pela MC-6.2. O distribuidor é Leste; Sul, Oeste e Norte seguem pela ordem de jogo."],
      ["MC-2.4", "O distribuidor recebe 14 peças e os outros 13, da frente da muralha. As flores são expostas logo e substituídas pelo fundo da muralha, a começar pelo distribuidor."],
      ["MC-2.5", "Cada flor vale um ponto, mas só numa mão que já faça oito pontos sem elas."],
    ] },
    { h: "Uma vez", items: [
      ["MC-3.1", "Tire uma peça da frente da muralha e descarte uma. A mesa pede confirmação do descarte."],
      ["MC-3.2", "Qualquer outro jogador pode reclamar um descarte para ganhar, fazer pung ou kong; só o seguinte pode fazer chow. Todas as respostas são recolhidas antes: ganhar vence pung ou kong, que vencem chow, e em empate fica o mais próximo depois de quem descartou."],
      ["MC-3.3", "Na sua vez pode declarar um kong oculto (quatro na mão) ou juntar a quarta peça a um pung exposto. Um kong tira uma substituta do fundo da muralha e só é permitido enquanto houver uma."],
      ["MC-3.4", "Uma peça juntada a um pung pode ser roubada: outro jogador pode ganhar com ela. Um kong oculto não pode ser roubado."],
      ["MC-3.5", "Depois de chow ou pung descarta primeiro; um kong fica para uma vez seguinte."],
      ["MC-3.6", "Quando quem está na vez não pode tirar peça, a muralha acabou e a mão empata."],
      ["MC-3.7", "Desde o conjunto de regras mcr/2: a descarga feita depois de tirada a última peça da muralha só pode ser reclamada para ganhar, nunca para chow, pung ou kong. As mãos jogadas com mcr/1 mantêm a sua regra."],
    ] },
    { h: "Ganhar e pontuar", items: [
      ["MC-4.1", "Formas vencedoras: quatro conjuntos e um par, sete pares, sete pares deslocados, treze órfãos, honras e peças entrelaçadas, e a sequência entrelaçada."],
      ["MC-4.2", "A mão vale o melhor total que a tabela oficial de fans permite, com as suas exclusões: ventos, dragões, pungs ocultos, kongs, esperas e momentos especiais de vitória contam."],
      ["MC-4.3", "Uma vitória precisa de oito pontos antes das flores; as flores somam-se depois."],
      ["MC-4.4", "Com peça própria: cada adversário paga 8 mais o total. Com um descarte (ou kong roubado) quem descartou paga 8 mais o total e os outros dois pagam 8."],
      ["MC-4.5", "Pode recusar uma vitória. Uma vitória reclamada sem mão vencedora é recusada e não altera nada."],
      ["MC-4.6", "Desde o conjunto de regras mcr/2: Vitória com Peça de Reposição só conta quando a peça vencedora é a própria reposição do kong; ganhar com uma peça que repôs uma flor conta como tirada pela própria mão, sem esse fan. Com mcr/1 contava."],
    ] },
    { h: "O que se vê", items: [
      ["MC-5.1", "Todos veem descartes, conjuntos expostos, flores, quantos kongs ocultos cada um tem (não quais), o tamanho das mãos, a muralha e de quem é a vez."],
      ["MC-5.2", "Só você vê a sua mão, a peça tirada, as suas opções e respostas até a janela fechar."],
      ["MC-5.3", "A ordem da muralha, as outras mãos, as peças dos kongs ocultos e a semente ficam escondidas até ao fim."],
    ] },
    { h: "Partidas", items: [
      ["MC-6.1", "Uma partida é uma ronda (quatro mãos), um jogo (quatro rondas, dezasseis mãos) ou um número de mãos. Uma partida de Mahjong não tem pontuação-alvo."],
      ["MC-6.2", "O vento da ronda da mão k (a contar de 0) é o vento da ronda k ÷ 4: Leste nas primeiras quatro mãos, depois Sul, Oeste e Norte."],
      ["MC-6.3", "O distribuidor da primeira mão sai da sua semente. Depois de cada mão, ganha ou empatada, distribui o lugar seguinte, e os ventos dos lugares seguem o distribuidor. Os jogadores não mudam de lugar entre rondas."],
      ["MC-6.4", "A tua pontuação acumulada é a soma dos teus pagamentos nas mãos jogadas."],
    ] },
  ],
};

const MC_NL = {
  title: "Chinees officieel mahjong — zo speelt deze tafel",
  intro: "Vier spelers maken vier sets en een paar (of een speciale hand) van minstens acht punten. De officiële fantabel telt de hand. Elke regel heeft een code die de tafel noemt.",
  sections: [
    { h: "De stenen", items: [
      ["MC-1.1", "Drie kleuren — karakters, bamboe en stenen, één tot negen — plus vier winden en drie draken, elk vier keer, en acht losse bloemen: 144 stenen."],
      ["MC-1.2", "Elke fysieke steen heeft een eigen nummer, zodat elk exemplaar in het logboek te volgen is."],
    ] },
    { h: "Delen", items: [
      ["MC-2.1", "Plaatsen 0 tot 3 spelen in die volgorde."],
      ["MC-2.2", "De seed kiest de gever en bouwt de muur; beide zijn aan het eind na te rekenen."],
      ["MC-2.3", "Buiten een partij is de rondewind oost; in een partij is het de wind die MC-6.2 geeft. De gever zit oost; zuid, west en noord volgen in beurtvolgorde."],
      ["MC-2.4", "De gever krijgt 14 stenen en de anderen 13, van de voorkant van de muur. Bloemen gaan meteen open en worden vervangen vanaf de achterkant, te beginnen bij de gever."],
      ["MC-2.5", "Elke bloem is één punt waard, maar alleen bij een hand die zonder bloemen al acht punten haalt."],
    ] },
    { h: "Een beurt", items: [
      ["MC-3.1", "Pak een steen van de voorkant van de muur en leg er één af. De tafel vraagt om bevestiging."],
      ["MC-3.2", "Elke andere speler mag een afgelegde steen claimen om te winnen, voor pung of kong; alleen de volgende speler mag chow. Eerst worden alle antwoorden verzameld: winnen gaat voor pung of kong, die gaan voor chow, en bij gelijkheid wint wie het dichtst na de afgooier zit."],
      ["MC-3.3", "In je eigen beurt mag je een verborgen kong melden (vier in de hand) of de vierde steen bij je open pung leggen. Een kong pakt een vervanger van de achterkant van de muur en mag alleen zolang die er is."],
      ["MC-3.4", "Een steen die bij een pung wordt gelegd kan geroofd worden: een ander mag erop winnen. Een verborgen kong kan niet geroofd worden."],
      ["MC-3.5", "Na chow of pung leg je eerst af; een kong moet wachten tot een latere beurt."],
      ["MC-3.6", "Kan de speler aan zet niet pakken, dan is de muur op en is het gelijkspel."],
      ["MC-3.7", "Vanaf regelset mcr/2: de afgooi na het pakken van de laatste steen van de muur mag alleen geclaimd worden om erop te winnen, nooit voor een chow, pung of kong. Spellen onder mcr/1 houden hun eigen regel."],
    ] },
    { h: "Winnen en tellen", items: [
      ["MC-4.1", "Winnende vormen: vier sets en een paar, zeven paren, zeven verschoven paren, dertien wezen, eer- en verweven stenen, en de verweven straat."],
      ["MC-4.2", "De hand krijgt het hoogste totaal dat de officiële fantabel met haar uitsluitingen toestaat: winden, draken, verborgen pungs, kongs, wachten en bijzondere winmomenten tellen mee."],
      ["MC-4.3", "Voor een winst zijn acht punten zonder bloemen nodig; bloemen komen daarna."],
      ["MC-4.4", "Op eigen steen: elke tegenstander betaalt 8 plus het totaal. Op een afgelegde steen (of geroofde kong) betaalt de afgooier 8 plus het totaal en de andere twee 8."],
      ["MC-4.5", "Je mag een winst laten lopen. Een geclaimde winst zonder echte winnende hand wordt geweigerd en verandert niets."],
      ["MC-4.6", "Vanaf regelset mcr/2: Uit met vervangende steen telt alleen als de winnende steen de eigen vervanger van de kong is; winnen op een steen die een bloem verving telt als zelf gepakt, zonder die fan. Onder mcr/1 telde hij wel."],
    ] },
    { h: "Wat je ziet", items: [
      ["MC-5.1", "Iedereen ziet afgelegde stenen, open sets, bloemen, hoeveel verborgen kongs iemand heeft (niet welke), handgroottes, de muur en wie aan zet is."],
      ["MC-5.2", "Alleen jij ziet je hand, je gepakte steen, je claimmogelijkheden en antwoorden tot het venster sluit."],
      ["MC-5.3", "De volgorde van de muur, de andere handen, de stenen van verborgen kongs en de seed blijven verborgen tot het eind."],
    ] },
    { h: "Partijen", items: [
      ["MC-6.1", "Een partij is een ronde (vier handen), een spel (vier rondes, zestien handen) of een aantal handen. Een Mahjong-partij heeft geen doelscore."],
      ["MC-6.2", "De rondewind van hand k (geteld vanaf 0) is de wind van ronde k ÷ 4: Oost voor de eerste vier handen, dan Zuid, West en Noord."],
      ["MC-6.3", "De gever van de eerste hand volgt uit de seed. Na elke hand, gewonnen of gelijk, geeft de volgende plaats, en de plaatswinden volgen de gever. Spelers wisselen niet van plaats tussen rondes."],
      ["MC-6.4", "Je lopende score is de som van je betalingen over de gespeelde handen."],
    ] },
  ],
};

const MC_AR = {
  title: "الماجونغ الصيني الرسمي — طريقة اللعب على هذه الطاولة",
  intro: "أربعة لاعبين يكوّنون أربع مجموعات وزوجًا (أو يدًا خاصة) قيمتها ثماني نقاط على الأقل. يحسب جدول الفانات الرسمي قيمة اليد. لكل قاعدة رمز تذكره الطاولة.",
  sections: [
    { h: "القطع", items: [
      ["MC-1.1", "ثلاث فئات — الحروف والخيزران والدوائر من واحد إلى تسعة — مع الرياح الأربع والتنانين الثلاثة، أربع نسخ من كل منها، وثماني زهور مفردة: 144 قطعة."],
      ["MC-1.2", "لكل قطعة رقمها الخاص، فيمكن تتبع كل نسخة في السجل."],
    ] },
    { h: "التوزيع", items: [
      ["MC-2.1", "تلعب المقاعد من 0 إلى 3 بهذا الترتيب."],
      ["MC-2.2", "تختار البذرة الموزّع وتبني الجدار، ويمكن التحقق منهما في النهاية."],
      ["MC-2.3", "خارج المباراة ريح الجولة هي الشرق؛ وفي المباراة هي الريح التي تحددها MC-6.2. الموزّع شرق، ثم الجنوب والغرب والشمال بترتيب اللعب."],
      ["MC-2.4", "يأخذ الموزّع 14 قطعة والآخرون 13 من مقدمة الجدار. تُكشف الزهور فورًا وتُستبدل من مؤخرة الجدار بدءًا بالموزّع."],
      ["MC-2.5", "كل زهرة بنقطة واحدة، لكن فقط ليد تبلغ ثماني نقاط من دونها."],
    ] },
    { h: "الدور", items: [
      ["MC-3.1", "اسحب قطعة من مقدمة الجدار ثم ارمِ قطعة. تطلب الطاولة تأكيد الرمي."],
      ["MC-3.2", "يحق لأي لاعب آخر طلب القطعة المرمية للفوز أو لـ«بونغ» أو «كونغ»؛ و«تشاو» للاعب التالي فقط. تُجمع كل الأجوبة أولًا: الفوز يغلب «بونغ» و«كونغ»، وهما يغلبان «تشاو»، وعند التساوي يأخذها الأقرب بعد الرامي."],
      ["MC-3.3", "في دورك يمكنك إعلان «كونغ» مخفية (أربع في يدك) أو إضافة القطعة الرابعة إلى «بونغ» مكشوفة. تسحب الـ«كونغ» بديلًا من مؤخرة الجدار، ولا تُسمح إلا إذا بقي بديل."],
      ["MC-3.4", "يمكن سرقة قطعة أُضيفت إلى «بونغ»: يحق لغيرك الفوز بها. أما الـ«كونغ» المخفية فلا تُسرق."],
      ["MC-3.5", "بعد «تشاو» أو «بونغ» ترمي أولًا؛ وتنتظر الـ«كونغ» دورًا لاحقًا."],
      ["MC-3.6", "إن عجز صاحب الدور عن السحب فقد نفد الجدار والجولة تعادل."],
      ["MC-3.7", "بدءًا من مجموعة القواعد mcr/2: القطعة المرمية بعد سحب آخر قطعة من الجدار لا يُطالب بها إلا للفوز، لا لتشاو ولا بونغ ولا كونغ. الجولات الملعوبة بقواعد mcr/1 تبقى على قاعدتها."],
    ] },
    { h: "الفوز والحساب", items: [
      ["MC-4.1", "أشكال الفوز: أربع مجموعات وزوج، سبعة أزواج، سبعة أزواج متتالية، الأيتام الثلاثة عشر، الشرفيات مع القطع المتشابكة، والتسلسل المتشابك."],
      ["MC-4.2", "تأخذ اليد أعلى مجموع يسمح به جدول الفانات الرسمي مع قواعد الاستبعاد: الرياح والتنانين والبونغ المخفية والكونغ والانتظار ولحظات الفوز الخاصة كلها تُحتسب."],
      ["MC-4.3", "يحتاج الفوز ثماني نقاط قبل الزهور، ثم تُضاف الزهور."],
      ["MC-4.4", "بسحب ذاتي: يدفع كل خصم 8 زائد المجموع. على قطعة مرمية (أو كونغ مسروقة) يدفع الرامي 8 زائد المجموع ويدفع الآخران 8."],
      ["MC-4.5", "يمكنك ترك الفوز. أما طلب فوز بلا يد فائزة فيُرفض ولا يغيّر شيئًا."],
      ["MC-4.6", "بدءًا من مجموعة القواعد mcr/2: لا يُحسب «الفوز بورقة التعويض» إلا إن كانت القطعة الفائزة بديلة الكونغ نفسه؛ والفوز بقطعة حلّت محل زهرة يُحسب سحبًا ذاتيًا بدونه. في mcr/1 كان يُحسب."],
    ] },
    { h: "ما تراه", items: [
      ["MC-5.1", "يرى الجميع القطع المرمية والمجموعات المكشوفة والزهور وعدد الكونغ المخفية لكل لاعب (لا نوعها) وحجم الأيدي والجدار ومن عليه الدور."],
      ["MC-5.2", "أنت وحدك ترى يدك والقطعة المسحوبة وخيارات طلبك وأجوبتك حتى تُغلق النافذة."],
      ["MC-5.3", "ترتيب الجدار والأيدي الأخرى وقطع الكونغ المخفية والبذرة تبقى مخفية حتى النهاية."],
    ] },
    { h: "المباريات", items: [
      ["MC-6.1", "المباراة جولة (أربع أيدٍ) أو لعبة (أربع جولات، ست عشرة يدًا) أو عدد من الأيدي. لا هدف للنقاط في مباراة الماهجونغ."],
      ["MC-6.2", "ريح الجولة في اليد k (العدّ من 0) هي ريح الجولة k ÷ 4: الشرق في الأيدي الأربع الأولى، ثم الجنوب والغرب والشمال."],
      ["MC-6.3", "يُستخرج موزّع اليد الأولى من بذرتها. بعد كل يد، فازها أحد أو انتهت بالتعادل، يوزّع المقعد التالي، وتتبع رياح المقاعد الموزّع. لا يغيّر اللاعبون مقاعدهم بين الجولات."],
      ["MC-6.4", "نتيجتك الجارية هي مجموع مدفوعاتك في الأيدي التي لُعبت."],
    ] },
  ],
};

const MC_FI = {
  title: "Kiinalainen virallinen mahjong — näin tässä pöydässä pelataan",
  intro: "Neljä pelaajaa kokoaa neljä sarjaa ja parin (tai erikoiskäden), jonka arvo on vähintään kahdeksan pistettä. Virallinen fan-taulukko pisteyttää käden. Jokaisella säännöllä on tunnus, jonka pöytä mainitsee.",
  sections: [
    { h: "Laatat", items: [
      ["MC-1.1", "Kolme maata — merkit, bambut ja pallot, yhdestä yhdeksään — sekä neljä tuulta ja kolme lohikäärmettä, kutakin neljä, ja kahdeksan yksittäistä kukkaa: 144 laattaa."],
      ["MC-1.2", "Jokaisella fyysisellä laatalla on oma numeronsa, joten jokaisen kappaleen voi seurata lokista."],
    ] },
    { h: "Jako", items: [
      ["MC-2.1", "Paikat 0–3 pelaavat tässä järjestyksessä."],
      ["MC-2.2", "Siemen valitsee jakajan ja rakentaa muurin; molemmat voi tarkistaa lopuksi."],
      ["MC-2.3", "Ottelun ulkopuolella kierroksen tuuli on itä; ottelussa se on MC-6.2:n mukainen tuuli. Jakaja on itä, ja etelä, länsi ja pohjoinen seuraavat vuorojärjestyksessä."],
      ["MC-2.4", "Jakaja saa 14 laattaa ja muut 13 muurin etupäästä. Kukat asetetaan heti esille ja korvataan muurin takapäästä jakajasta alkaen."],
      ["MC-2.5", "Jokainen kukka on yhden pisteen arvoinen, mutta vain kädessä, joka yltää kahdeksaan pisteeseen ilman niitä."],
    ] },
    { h: "Vuoro", items: [
      ["MC-3.1", "Nosta laatta muurin etupäästä ja poista yksi. Pöytä pyytää vahvistamaan poiston."],
      ["MC-3.2", "Kuka tahansa muu voi ottaa poistetun laatan voittoon, pungiin tai kongiin; chow on sallittu vain seuraavalle. Kaikki vastaukset kerätään ensin: voitto ohittaa pungin ja kongin, jotka ohittavat chow'n, ja tasatilanteessa laatan saa poistajaa lähinnä seuraava."],
      ["MC-3.3", "Omalla vuorollasi voit ilmoittaa piilotetut neloset (neljä kädessä) tai lisätä neljännen laatan esillä oleviin kolmosiin. Kong nostaa korvaavan laatan muurin takapäästä, ja se on sallittu vain, kun sellainen on jäljellä."],
      ["MC-3.4", "Kolmosiin lisätyn laatan voi ryöstää: toinen pelaaja voi voittaa sillä. Piilotettuja nelosia ei voi ryöstää."],
      ["MC-3.5", "Chow'n tai pungin jälkeen poistat ensin; kong odottaa myöhempää vuoroa."],
      ["MC-3.6", "Kun vuorossa oleva ei voi nostaa, muuri on loppu ja jako päättyy tasapeliin."],
      ["MC-3.7", "Sääntöversiosta mcr/2 alkaen: muurin viimeisen laatan noston jälkeen heitettyä laattaa saa vaatia vain voittoon, ei chow-, pung- eikä kong-yhdistelmään. Versiolla mcr/1 pelatut jaot noudattavat omaa sääntöään."],
    ] },
    { h: "Voitto ja pisteet", items: [
      ["MC-4.1", "Voittomuodot: neljä sarjaa ja pari, seitsemän paria, seitsemän siirtynyttä paria, kolmetoista orpoa, kunnialaatat ja limittäiset laatat sekä limittäinen suora."],
      ["MC-4.2", "Käsi saa parhaan summan, jonka virallinen fan-taulukko poissulkemissääntöineen sallii: tuulet, lohikäärmeet, piilotetut kolmoset, kongit, odotukset ja erityiset voittohetket lasketaan."],
      ["MC-4.3", "Voittoon tarvitaan kahdeksan pistettä ilman kukkia; kukat lisätään vasta sen jälkeen."],
      ["MC-4.4", "Omalla nostolla: jokainen vastustaja maksaa 8 plus summan. Poistosta (tai ryöstetystä kongista) poistaja maksaa 8 plus summan ja muut kaksi 8."],
      ["MC-4.5", "Voitosta saa kieltäytyä. Väärä voittoilmoitus hylätään eikä muuta mitään."],
      ["MC-4.6", "Sääntöversiosta mcr/2 alkaen: Voitto korvauslaatalla lasketaan vain, kun voittava laatta on kongin oma korvaava laatta; voitto kukan korvanneella laatalla lasketaan itse nostetuksi ilman sitä. Versiossa mcr/1 se laskettiin."],
    ] },
    { h: "Mitä näet", items: [
      ["MC-5.1", "Kaikki näkevät poistot, esillä olevat sarjat, kukat, kunkin piilotettujen nelosten määrän (ei lajia), käsien koot, muurin ja kenen vuoro on."],
      ["MC-5.2", "Vain sinä näet kätesi, nostamasi laatan, ottovaihtoehtosi ja vastauksesi, kunnes ikkuna sulkeutuu."],
      ["MC-5.3", "Muurin järjestys, muiden kädet, piilotettujen nelosten laatat ja siemen pysyvät piilossa loppuun asti."],
    ] },
    { h: "Ottelut", items: [
      ["MC-6.1", "Ottelu on kierros (neljä kättä), peli (neljä kierrosta, kuusitoista kättä) tai jokin määrä käsiä. Mahjong-ottelussa ei ole tavoitepisteitä."],
      ["MC-6.2", "Käden k (laskien nollasta) kierroksen tuuli on kierroksen k ÷ 4 tuuli: itä neljässä ensimmäisessä kädessä, sitten etelä, länsi ja pohjoinen."],
      ["MC-6.3", "Ensimmäisen käden jakaja saadaan sen siemenestä. Jokaisen käden jälkeen, voitetun tai tasapelin, seuraava paikka jakaa, ja paikkojen tuulet seuraavat jakajaa. Pelaajat eivät vaihda paikkaa kierrosten välillä."],
      ["MC-6.4", "Juokseva pistemääräsi on maksujesi summa pelatuista käsistä."],
    ] },
  ],
};

export const RULES = { en: MC_EN, pt: MC_PT, nl: MC_NL, ar: MC_AR, fi: MC_FI };


// What this game adds to a table rule's text on the table rules page, per language.
export const TABLE_NOTES = {
  en: { "TB-2.5": "In Mahjong on your own turn: no win and no kong; the tile just drawn is discarded, or, after a claim, the concealed tile with the highest number." },
  pt: { "TB-2.5": "No Mahjong, na própria vez: nem vitória nem kong; descarta-se a peça acabada de tirar ou, depois de uma reclamação, a peça oculta de número mais alto." },
  nl: { "TB-2.5": "Bij mahjong in je eigen beurt: geen winst en geen kong; de net getrokken steen wordt afgelegd, of na een claim de verborgen steen met het hoogste nummer." },
  ar: { "TB-2.5": "وفي الماجونغ في دورك: لا فوز ولا «كونغ»؛ تُرمى القطعة المسحوبة للتو، أو بعد مطالبةٍ القطعةُ المخفية ذات الرقم الأعلى." },
  fi: { "TB-2.5": "Mahjongissa omalla vuorolla: ei voittoa eikä kongia; juuri nostettu laatta poistetaan, tai oton jälkeen se piilossa oleva laatta, jonka numero on suurin." },
};
