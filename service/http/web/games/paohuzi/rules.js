// Paohuzi's rules in every language, our own wording of docs/rules/paohuzi.md, every item under
// its rule id (the ids the server's refusals and audit cite). The game's module hands them to the
// rules page and to ruleText as `rules`.

const PH_EN = {
  title: "Paohuzi — how the table plays",
  intro: "Three players, eighty long cards, and a race to build seven groups worth at least fifteen huxi. Every rule has an id; the table quotes it when it refuses a move or settles a claim.",
  sections: [
    { h: "The cards", items: [
      ["PH-1.1", "There are ranks one to ten in two sizes, small (written 一 to 十) and big (壹 to 拾), with four copies of each: eighty cards."],
      ["PH-1.2", "Two cards are identical only when both size and rank match. A small five and a big five are different kinds."],
      ["PH-1.3", "Every physical card has its own number, so the log can follow each copy through the deal."],
    ] },
    { h: "Dealing", items: [
      ["PH-2.1", "Seats 0, 1 and 2 play in that order, round and round."],
      ["PH-2.2", "The seed of the deal picks the dealer and shuffles the deck; you can check both afterwards."],
      ["PH-2.3", "The dealer takes the first 21 cards of the shuffled deck, the next seat 20, the seat after that 20; the last 19 form the stock."],
      ["PH-2.4", "The dealer's 21st card is turned face up for everyone, though it stays in the dealer's hand."],
      ["PH-2.5", "Four identical cards in a starting hand are laid out at once as a ti. Three identical cards become a kan: it stays hidden, can never be broken up or discarded."],
      ["PH-2.6", "A player who starts with three ti, or with five kan, wins on the spot (a heavenly win)."],
      ["PH-2.7", "Otherwise the dealer opens by discarding, unless the dealer already holds the right number of cards; then the next seat reveals first."],
    ] },
    { h: "Groups and their huxi", p: "Huxi are the points of a group; big cards are worth more than small ones.", items: [
      ["PH-3", "Ti 9/12 · pao 6/9 · wei 3/6 · kan 3/6 · peng 1/3 · chi 1-2-3 or 2-7-10 in one size 3/6 · any other chi 0 · pair 0 (small/big)."],
      ["PH-3.1", "A chi is three consecutive ranks of one size, or 2-7-10 of one size, or three cards of one rank mixing sizes (two big and one small, or two small and one big)."],
    ] },
    { h: "Winning", items: [
      ["PH-4.1", "You win with seven groups (your exposed melds, your hidden cards and the winning card) worth 15 huxi or more."],
      ["PH-4.2", "If one of your groups has four cards (ti or pao), exactly one of the seven groups must be a pair; otherwise all seven are groups of three."],
      ["PH-4.3", "Each four-card group beyond the first lets you hold one card more."],
      ["PH-4.4", "Exposed melds stay as they are and a kan is never split; the hidden cards and the winning card are arranged into groups."],
      ["PH-4.5", "When the cards can be arranged in several ways, the arrangement with the most huxi counts."],
      ["PH-4.6", "You can only win on a card turned up from the stock (yours or anyone's), never on a discard, apart from the heavenly win."],
      ["PH-4.7", "A dead hand cannot win. Winning is optional: you may pass."],
    ] },
    { h: "A turn", items: [
      ["PH-5.1", "On your turn you turn the top card of the stock face up. It does not join your hand; if nobody takes it, it goes to your row and the next seat reveals."],
      ["PH-5.2", "After a meld you discard one card only if you now hold more than your target (twenty, plus one for each four-card group after the first). Chi, peng and wei always need a discard."],
      ["PH-5.3", "Discards come from your free hidden cards, never from a kan, and everyone sees them."],
      ["PH-5.4", "Play continues with the seat after whoever revealed, discarded or melded without discarding; seats in between are skipped."],
      ["PH-5.5", "If the stock runs out and the last card brings no winner, the deal is drawn."],
    ] },
    { h: "Claims", items: [
      ["PH-6.1", "Compulsory: if the card you reveal matches a kan in your hand it makes a ti; if it matches a pair it makes a wei. Nobody asks you first."],
      ["PH-6.2", "On a revealed card: anyone may win; another seat's kan, or anyone's exposed wei or peng, may take it as a pao; another seat with a pair may peng; the revealer and the next seat may chi."],
      ["PH-6.3", "On a discarded card: pao onto a hidden kan or an exposed wei, peng with a pair, and chi only for the seat after the discarder. No win."],
      ["PH-6.4", "When several seats want the card: win beats pao and peng, which beat chi. Equal claims go to the seat first in turn order. A window closes as soon as no silent seat could still beat the best answer; answers stay secret until then."],
      ["PH-6.5", "Bi: if you chi a card while holding more copies of that kind, each copy must go into another chi laid down at the same time. If that is impossible, no chi."],
      ["PH-6.6", "You may not chi or peng if it would leave you nothing to discard. If a compulsory meld does that, the hand is dead: it only reveals and may still form ti or pao."],
      ["PH-6.7", "Chou: once you pass a chi or peng on a kind, or discard that kind yourself, you may never chi or peng it again this deal. Wins, ti, wei and pao stay allowed."],
    ] },
    { h: "What you can see", items: [
      ["PH-7.1", "Everyone sees revealed and discarded cards, exposed melds, the dealer's open card, how many hidden cards each player holds, the stock count and whose move it is."],
      ["PH-7.2", "Only you see your hidden cards, your kan, your claim options and your answers until the window closes."],
      ["PH-7.3", "Nobody sees the stock order, the other hands or the seed until the deal is over."],
    ] },
    { h: "Scoring", items: [
      ["PH-8.1", "Add up the huxi of the winning arrangement."],
      ["PH-8.2", "Fewer than 15 huxi is no win."],
      ["PH-8.3", "Tun: 15 to 17 huxi is 1 tun, 18 to 20 is 2, and each further 3 huxi adds one: tun = 1 + (huxi − 15) ÷ 3, rounded down."],
      ["PH-8.4", "Both opponents pay the winner the tun. A drawn deal costs nobody anything."],
    ] },
    { h: "Matches", items: [
      ["PH-9.1", "A match is a number of deals. With a target in tun it ends earlier, after the deal in which a seat's running score reaches the target."],
      ["PH-9.2", "The first deal's dealer comes from its seed. The winner of a deal deals the next one; after a drawn deal the seat after the dealer deals."],
      ["PH-9.3", "Your running score is the sum of your payments over the deals played."],
    ] },
  ],
};

const PH_PT = {
  title: "Paohuzi — como se joga nesta mesa",
  intro: "Três jogadores, oitenta cartas compridas e uma corrida para formar sete grupos que valham pelo menos quinze huxi. Cada regra tem um código; a mesa cita-o quando recusa uma jogada ou decide uma reclamação.",
  sections: [
    { h: "As cartas", items: [
      ["PH-1.1", "Há valores de um a dez em dois tamanhos, pequeno (一 a 十) e grande (壹 a 拾), com quatro exemplares de cada: oitenta cartas."],
      ["PH-1.2", "Duas cartas são iguais só se o tamanho e o valor coincidirem. Um cinco pequeno e um cinco grande são tipos diferentes."],
      ["PH-1.3", "Cada carta física tem o seu número, para que o registo acompanhe cada exemplar durante a mão."],
    ] },
    { h: "A distribuição", items: [
      ["PH-2.1", "Os lugares 0, 1 e 2 jogam por esta ordem, sempre à volta."],
      ["PH-2.2", "A semente da mão escolhe o distribuidor e baralha; ambos podem ser verificados depois."],
      ["PH-2.3", "O distribuidor recebe as primeiras 21 cartas do baralho, o lugar seguinte 20, o outro 20; as últimas 19 formam o monte."],
      ["PH-2.4", "A 21.ª carta do distribuidor fica virada para cima para todos, embora continue na mão dele."],
      ["PH-2.5", "Quatro cartas iguais na mão inicial são expostas logo como ti. Três iguais formam um kan: fica escondido e nunca se separa nem se descarta."],
      ["PH-2.6", "Quem começa com três ti, ou com cinco kan, ganha de imediato (vitória celestial)."],
      ["PH-2.7", "Caso contrário o distribuidor abre com um descarte, a não ser que já tenha o número certo de cartas; então o lugar seguinte revela primeiro."],
    ] },
    { h: "Grupos e huxi", p: "Os huxi são os pontos de um grupo; as cartas grandes valem mais do que as pequenas.", items: [
      ["PH-3", "Ti 9/12 · pao 6/9 · wei 3/6 · kan 3/6 · peng 1/3 · chi 1-2-3 ou 2-7-10 do mesmo tamanho 3/6 · outro chi 0 · par 0 (pequeno/grande)."],
      ["PH-3.1", "Um chi são três valores seguidos do mesmo tamanho, ou 2-7-10 do mesmo tamanho, ou três cartas do mesmo valor com tamanhos misturados (duas grandes e uma pequena, ou duas pequenas e uma grande)."],
    ] },
    { h: "Ganhar", items: [
      ["PH-4.1", "Ganha-se com sete grupos (as combinações expostas, as cartas escondidas e a carta vencedora) que valham 15 huxi ou mais."],
      ["PH-4.2", "Se algum grupo tiver quatro cartas (ti ou pao), exatamente um dos sete tem de ser um par; senão os sete são grupos de três."],
      ["PH-4.3", "Cada grupo de quatro além do primeiro permite ter mais uma carta."],
      ["PH-4.4", "As combinações expostas ficam como estão e um kan nunca se parte; as cartas escondidas e a vencedora são arrumadas em grupos."],
      ["PH-4.5", "Se houver várias arrumações possíveis, conta a que dá mais huxi."],
      ["PH-4.6", "Só se ganha com uma carta revelada do monte (sua ou de outro), nunca com um descarte, salvo a vitória celestial."],
      ["PH-4.7", "Uma mão morta não pode ganhar. Ganhar é opcional: pode passar."],
    ] },
    { h: "Uma vez", items: [
      ["PH-5.1", "Na sua vez vira a carta de cima do monte. Ela não entra na sua mão; se ninguém a quiser, vai para a sua fila e o lugar seguinte revela."],
      ["PH-5.2", "Depois de uma combinação só descarta se ficar com mais cartas do que o alvo (vinte, mais uma por cada grupo de quatro depois do primeiro). Chi, peng e wei pedem sempre descarte."],
      ["PH-5.3", "Os descartes saem das cartas escondidas livres, nunca de um kan, e todos os veem."],
      ["PH-5.4", "O jogo segue no lugar depois de quem revelou, descartou ou combinou sem descartar; os lugares entre eles são saltados."],
      ["PH-5.5", "Se o monte acabar e a última carta não der vencedor, a mão fica empatada."],
    ] },
    { h: "Reclamações", items: [
      ["PH-6.1", "Obrigatório: se a carta que revela completa um kan na sua mão forma um ti; se completa um par forma um wei. Ninguém lhe pergunta antes."],
      ["PH-6.2", "Numa carta revelada: qualquer um pode ganhar; o kan de outro lugar, ou um wei ou peng exposto de qualquer um, pode levá-la como pao; outro lugar com par pode fazer peng; quem revelou e o lugar seguinte podem fazer chi."],
      ["PH-6.3", "Numa carta descartada: pao sobre um kan escondido ou um wei exposto, peng com um par, e chi só para o lugar depois de quem descartou. Não há vitória."],
      ["PH-6.4", "Se vários lugares quiserem a carta: ganhar vence pao e peng, que vencem chi. Em empate fica o primeiro na ordem de jogo. A janela fecha logo que nenhum lugar calado possa ainda bater a melhor resposta; até lá as respostas são secretas."],
      ["PH-6.5", "Bi: se fizer chi de uma carta tendo mais exemplares desse tipo, cada exemplar tem de entrar noutro chi exposto ao mesmo tempo. Se for impossível, não há chi."],
      ["PH-6.6", "Não pode fazer chi nem peng se ficar sem nada para descartar. Se uma combinação obrigatória causar isso, a mão morre: só revela e ainda pode formar ti ou pao."],
      ["PH-6.7", "Chou: depois de passar um chi ou peng de um tipo, ou de descartar esse tipo, não pode voltar a fazer chi nem peng dele nesta mão. Vitória, ti, wei e pao continuam permitidos."],
    ] },
    { h: "O que se vê", items: [
      ["PH-7.1", "Todos veem as cartas reveladas e descartadas, as combinações expostas, a carta aberta do distribuidor, quantas cartas escondidas cada um tem, o tamanho do monte e de quem é a vez."],
      ["PH-7.2", "Só você vê as suas cartas escondidas, os seus kan, as suas opções e respostas até a janela fechar."],
      ["PH-7.3", "Ninguém vê a ordem do monte, as outras mãos nem a semente antes do fim."],
    ] },
    { h: "Pontuação", items: [
      ["PH-8.1", "Somam-se os huxi da arrumação vencedora."],
      ["PH-8.2", "Menos de 15 huxi não é vitória."],
      ["PH-8.3", "Tun: 15 a 17 huxi dá 1 tun, 18 a 20 dá 2, e cada 3 huxi a mais soma um: tun = 1 + (huxi − 15) ÷ 3, arredondado para baixo."],
      ["PH-8.4", "Os dois adversários pagam o tun ao vencedor. Num empate ninguém paga."],
    ] },
    { h: "Partidas", items: [
      ["PH-9.1", "Uma partida é um número de mãos. Com um alvo em tun acaba mais cedo, depois da mão em que a pontuação acumulada de um lugar chega ao alvo."],
      ["PH-9.2", "O distribuidor da primeira mão sai da sua semente. Quem ganha uma mão distribui a seguinte; depois de um empate distribui o lugar a seguir ao distribuidor."],
      ["PH-9.3", "A tua pontuação acumulada é a soma dos teus pagamentos nas mãos jogadas."],
    ] },
  ],
};

const PH_NL = {
  title: "Paohuzi — zo speelt deze tafel",
  intro: "Drie spelers, tachtig lange kaarten en een wedloop om zeven groepen te maken die samen minstens vijftien huxi waard zijn. Elke regel heeft een code; de tafel noemt die als hij een zet weigert of een claim beslist.",
  sections: [
    { h: "De kaarten", items: [
      ["PH-1.1", "Er zijn waarden één tot tien in twee maten, klein (一 tot 十) en groot (壹 tot 拾), elk vier keer: tachtig kaarten."],
      ["PH-1.2", "Twee kaarten zijn alleen gelijk als maat en waarde overeenkomen. Een kleine vijf en een grote vijf zijn verschillende soorten."],
      ["PH-1.3", "Elke fysieke kaart heeft een eigen nummer, zodat het logboek elk exemplaar volgt."],
    ] },
    { h: "Delen", items: [
      ["PH-2.1", "Plaatsen 0, 1 en 2 spelen in die volgorde, steeds rond."],
      ["PH-2.2", "De seed van het spel kiest de gever en schudt; beide zijn achteraf na te rekenen."],
      ["PH-2.3", "De gever krijgt de eerste 21 kaarten, de volgende plaats 20, de plaats daarna 20; de laatste 19 vormen de stapel."],
      ["PH-2.4", "De 21e kaart van de gever ligt open voor iedereen, maar blijft in zijn hand."],
      ["PH-2.5", "Vier gelijke kaarten in de beginhand worden meteen als ti neergelegd. Drie gelijke vormen een kan: die blijft verborgen en mag nooit gesplitst of afgelegd worden."],
      ["PH-2.6", "Wie begint met drie ti of vijf kan wint meteen (hemelse winst)."],
      ["PH-2.7", "Anders begint de gever met afleggen, tenzij hij al het juiste aantal kaarten heeft; dan draait de volgende plaats eerst om."],
    ] },
    { h: "Groepen en huxi", p: "Huxi zijn de punten van een groep; grote kaarten zijn meer waard dan kleine.", items: [
      ["PH-3", "Ti 9/12 · pao 6/9 · wei 3/6 · kan 3/6 · peng 1/3 · chi 1-2-3 of 2-7-10 in één maat 3/6 · andere chi 0 · paar 0 (klein/groot)."],
      ["PH-3.1", "Een chi is drie opeenvolgende waarden van één maat, of 2-7-10 van één maat, of drie kaarten van één waarde in gemengde maat (twee groot en één klein, of twee klein en één groot)."],
    ] },
    { h: "Winnen", items: [
      ["PH-4.1", "Je wint met zeven groepen (je open combinaties, je verborgen kaarten en de winnende kaart) die samen 15 huxi of meer waard zijn."],
      ["PH-4.2", "Heb je een groep van vier (ti of pao), dan moet precies één van de zeven groepen een paar zijn; anders zijn het zeven groepen van drie."],
      ["PH-4.3", "Elke groep van vier na de eerste laat je één kaart meer houden."],
      ["PH-4.4", "Open combinaties blijven zoals ze zijn en een kan wordt nooit gesplitst; de verborgen kaarten plus de winnende kaart worden in groepen verdeeld."],
      ["PH-4.5", "Kunnen de kaarten op meerdere manieren verdeeld worden, dan telt de verdeling met de meeste huxi."],
      ["PH-4.6", "Winnen kan alleen op een kaart die van de stapel wordt omgedraaid (door jou of een ander), nooit op een afgelegde kaart, behalve bij hemelse winst."],
      ["PH-4.7", "Een dode hand kan niet winnen. Winnen is niet verplicht: je mag passen."],
    ] },
    { h: "Een beurt", items: [
      ["PH-5.1", "In je beurt draai je de bovenste kaart van de stapel om. Die komt niet in je hand; neemt niemand hem, dan gaat hij naar je rij en draait de volgende plaats om."],
      ["PH-5.2", "Na een combinatie leg je alleen af als je meer kaarten hebt dan je doel (twintig, plus één per groep van vier na de eerste). Chi, peng en wei vragen altijd een afgelegde kaart."],
      ["PH-5.3", "Je legt af uit je vrije verborgen kaarten, nooit uit een kan, en iedereen ziet het."],
      ["PH-5.4", "Het spel gaat verder bij de plaats na wie omdraaide, aflegde of combineerde zonder af te leggen; plaatsen daartussen worden overgeslagen."],
      ["PH-5.5", "Is de stapel op en levert de laatste kaart geen winnaar, dan is het gelijkspel."],
    ] },
    { h: "Claims", items: [
      ["PH-6.1", "Verplicht: past de kaart die je omdraait bij een kan in je hand, dan wordt het een ti; past hij bij een paar, dan een wei. Niemand vraagt het eerst."],
      ["PH-6.2", "Op een omgedraaide kaart: iedereen mag winnen; de kan van een andere plaats, of ieders open wei of peng, mag hem als pao nemen; een andere plaats met een paar mag peng doen; de omdraaier en de volgende plaats mogen chi doen."],
      ["PH-6.3", "Op een afgelegde kaart: pao op een verborgen kan of open wei, peng met een paar, en chi alleen voor de plaats na de afgooier. Geen winst."],
      ["PH-6.4", "Willen meerdere plaatsen de kaart: winnen gaat voor pao en peng, die gaan voor chi. Bij gelijke claims wint wie eerst in de beurtvolgorde zit. Een venster sluit zodra geen zwijgende plaats het beste antwoord nog kan overtroeven; tot dan blijven antwoorden geheim."],
      ["PH-6.5", "Bi: doe je chi op een kaart terwijl je nog meer van die soort hebt, dan moet elk exemplaar tegelijk in een andere chi. Lukt dat niet, dan geen chi."],
      ["PH-6.6", "Chi of peng mag niet als je daarna niets kunt afleggen. Doet een verplichte combinatie dat, dan is de hand dood: hij draait alleen nog om en mag nog ti of pao maken."],
      ["PH-6.7", "Chou: pas je een chi of peng op een soort, of leg je die soort zelf af, dan mag je die dit spel nooit meer chi of peng doen. Winnen, ti, wei en pao blijven mogelijk."],
    ] },
    { h: "Wat je ziet", items: [
      ["PH-7.1", "Iedereen ziet omgedraaide en afgelegde kaarten, open combinaties, de open kaart van de gever, hoeveel verborgen kaarten elke speler heeft, de stapel en wie aan zet is."],
      ["PH-7.2", "Alleen jij ziet je verborgen kaarten, je kan, je claimmogelijkheden en je antwoorden tot het venster sluit."],
      ["PH-7.3", "Niemand ziet de volgorde van de stapel, de andere handen of de seed voordat het spel voorbij is."],
    ] },
    { h: "Telling", items: [
      ["PH-8.1", "Tel de huxi van de winnende verdeling op."],
      ["PH-8.2", "Minder dan 15 huxi is geen winst."],
      ["PH-8.3", "Tun: 15 tot 17 huxi is 1 tun, 18 tot 20 is 2, en elke 3 huxi extra geeft er één bij: tun = 1 + (huxi − 15) ÷ 3, naar beneden afgerond."],
      ["PH-8.4", "Beide tegenstanders betalen de winnaar de tun. Bij gelijkspel betaalt niemand."],
    ] },
    { h: "Partijen", items: [
      ["PH-9.1", "Een partij is een aantal spellen. Met een doel in tun eindigt ze eerder, na het spel waarin de lopende score van een plaats het doel haalt."],
      ["PH-9.2", "De gever van het eerste spel volgt uit de seed. Wie een spel wint, geeft het volgende; na gelijkspel geeft de plaats na de gever."],
      ["PH-9.3", "Je lopende score is de som van je betalingen over de gespeelde spellen."],
    ] },
  ],
};

const PH_AR = {
  title: "باوهوزي — طريقة اللعب على هذه الطاولة",
  intro: "ثلاثة لاعبين وثمانون ورقة طويلة، وسباق لتكوين سبع مجموعات قيمتها خمسة عشر هوشي على الأقل. لكل قاعدة رمز تذكره الطاولة حين ترفض حركة أو تحسم طلبًا.",
  sections: [
    { h: "الأوراق", items: [
      ["PH-1.1", "القيم من واحد إلى عشرة بحجمين، صغير (一 إلى 十) وكبير (壹 إلى 拾)، ومن كل ورقة أربع نسخ: ثمانون ورقة."],
      ["PH-1.2", "تتطابق ورقتان فقط إذا اتفق الحجم والقيمة. الخمسة الصغيرة والخمسة الكبيرة نوعان مختلفان."],
      ["PH-1.3", "لكل ورقة رقمها الخاص، فيتتبع السجل كل نسخة طوال الجولة."],
    ] },
    { h: "التوزيع", items: [
      ["PH-2.1", "تلعب المقاعد 0 ثم 1 ثم 2 بالتناوب."],
      ["PH-2.2", "تختار بذرة الجولة الموزّع وتخلط الرزمة، ويمكن التحقق من الاثنين لاحقًا."],
      ["PH-2.3", "يأخذ الموزّع أول 21 ورقة، والمقعد التالي 20، والذي بعده 20، وتبقى آخر 19 ورقة كومةً."],
      ["PH-2.4", "تُكشف الورقة الحادية والعشرون للموزّع أمام الجميع، لكنها تبقى في يده."],
      ["PH-2.5", "أربع أوراق متطابقة في اليد الأولى تُكشف فورًا كـ«تي». وثلاث متطابقة تصبح «كان»: تبقى مخفية ولا تُفكّ ولا تُرمى أبدًا."],
      ["PH-2.6", "من يبدأ بثلاث «تي» أو خمس «كان» يفوز فورًا (فوز سماوي)."],
      ["PH-2.7", "وإلا يبدأ الموزّع برمي ورقة، إلا إذا كان يحمل العدد الصحيح؛ عندها يكشف المقعد التالي أولًا."],
    ] },
    { h: "المجموعات وقيمتها", p: "الهوشي نقاط المجموعة، والأوراق الكبيرة أعلى قيمة من الصغيرة.", items: [
      ["PH-3", "تي 9/12 · باو 6/9 · وي 3/6 · كان 3/6 · بنغ 1/3 · تشي 1-2-3 أو 2-7-10 من حجم واحد 3/6 · أي تشي آخر 0 · زوج 0 (صغير/كبير)."],
      ["PH-3.1", "التشي ثلاث قيم متتالية من حجم واحد، أو 2-7-10 من حجم واحد، أو ثلاث أوراق من قيمة واحدة بحجمين مختلطين (كبيرتان وصغيرة، أو صغيرتان وكبيرة)."],
    ] },
    { h: "الفوز", items: [
      ["PH-4.1", "تفوز بسبع مجموعات (المكشوفة والمخفية مع الورقة الفائزة) قيمتها 15 هوشي أو أكثر."],
      ["PH-4.2", "إن كانت لديك مجموعة من أربع أوراق (تي أو باو) فيجب أن تكون واحدة بالضبط من السبع زوجًا؛ وإلا فالسبع كلها ثلاثيات."],
      ["PH-4.3", "كل مجموعة رباعية بعد الأولى تسمح لك بورقة إضافية."],
      ["PH-4.4", "تبقى المجموعات المكشوفة كما هي ولا تُفكّ «كان»؛ وتُرتَّب الأوراق المخفية مع الورقة الفائزة في مجموعات."],
      ["PH-4.5", "إن أمكن الترتيب بأكثر من طريقة، يُحتسب الترتيب الأعلى هوشي."],
      ["PH-4.6", "لا فوز إلا على ورقة مكشوفة من الكومة (كشفتها أنت أو غيرك)، ولا فوز على ورقة مرمية، باستثناء الفوز السماوي."],
      ["PH-4.7", "اليد الميتة لا تفوز. والفوز اختياري: يمكنك التمرير."],
    ] },
    { h: "الدور", items: [
      ["PH-5.1", "في دورك تكشف الورقة العليا من الكومة. لا تدخل يدك؛ وإن لم يأخذها أحد تذهب إلى صفك ويكشف المقعد التالي."],
      ["PH-5.2", "بعد تكوين مجموعة ترمي ورقة فقط إن صار معك أكثر من هدفك (عشرون، وواحدة لكل مجموعة رباعية بعد الأولى). التشي والبنغ والوي تتطلب رميًا دائمًا."],
      ["PH-5.3", "ترمي من أوراقك المخفية الحرة، لا من «كان» أبدًا، ويرى الجميع الورقة."],
      ["PH-5.4", "يستمر اللعب من المقعد الذي يلي من كشف أو رمى أو كوّن مجموعة دون رمي؛ ويُتخطّى من بينهما."],
      ["PH-5.5", "إن نفدت الكومة ولم تأتِ الورقة الأخيرة بفائز، فالجولة تعادل."],
    ] },
    { h: "الطلبات", items: [
      ["PH-6.1", "إلزامي: إن طابقت الورقة التي تكشفها «كان» في يدك صارت «تي»؛ وإن طابقت زوجًا صارت «وي». لا يُسأل أحد قبل ذلك."],
      ["PH-6.2", "على ورقة مكشوفة: يحق لأي لاعب الفوز؛ ويمكن لـ«كان» مقعد آخر أو لأي «وي» أو «بنغ» مكشوف أخذها كـ«باو»؛ ويمكن لمقعد آخر معه زوج أن يطلب «بنغ»؛ ويمكن للكاشف والمقعد التالي طلب «تشي»."],
      ["PH-6.3", "على ورقة مرمية: «باو» على «كان» مخفية أو «وي» مكشوفة، و«بنغ» بزوج، و«تشي» للمقعد الذي يلي الرامي فقط. لا فوز."],
      ["PH-6.4", "إن أرادها أكثر من مقعد: الفوز يغلب «باو» و«بنغ»، وهما يغلبان «تشي». وعند التساوي يأخذها الأسبق في ترتيب اللعب. تُغلق النافذة حين لا يبقى مقعد صامت قادر على تجاوز أفضل جواب، وتبقى الأجوبة سرية حتى ذلك."],
      ["PH-6.5", "بي: إن طلبت «تشي» على ورقة وفي يدك نسخ أخرى من نوعها، فيجب أن تدخل كل نسخة في «تشي» آخر مكشوف في الوقت نفسه. وإن تعذّر ذلك فلا «تشي»."],
      ["PH-6.6", "لا يجوز «تشي» أو «بنغ» يتركك بلا ورقة ترميها. وإن فعلت مجموعة إلزامية ذلك، تموت اليد: تكشف فقط ويمكنها تكوين «تي» أو «باو»."],
      ["PH-6.7", "تشو: إن مرّرت «تشي» أو «بنغ» على نوع، أو رميت ذلك النوع بنفسك، فلا يحق لك «تشي» أو «بنغ» عليه بقية الجولة. يبقى الفوز و«تي» و«وي» و«باو» مسموحة."],
    ] },
    { h: "ما تراه", items: [
      ["PH-7.1", "يرى الجميع الأوراق المكشوفة والمرمية والمجموعات المكشوفة وورقة الموزّع المفتوحة وعدد الأوراق المخفية لكل لاعب وحجم الكومة ومن عليه الدور."],
      ["PH-7.2", "أنت وحدك ترى أوراقك المخفية و«كان» الخاصة بك وخيارات طلبك وأجوبتك حتى تُغلق النافذة."],
      ["PH-7.3", "لا أحد يرى ترتيب الكومة أو الأيدي الأخرى أو البذرة قبل نهاية الجولة."],
    ] },
    { h: "الحساب", items: [
      ["PH-8.1", "اجمع هوشي الترتيب الفائز."],
      ["PH-8.2", "أقل من 15 هوشي ليس فوزًا."],
      ["PH-8.3", "التون: من 15 إلى 17 هوشي تون واحد، ومن 18 إلى 20 تونان، وكل 3 هوشي إضافية تضيف واحدًا: تون = 1 + (هوشي − 15) ÷ 3 مع التقريب إلى الأسفل."],
      ["PH-8.4", "يدفع الخصمان للفائز قيمة التون. ولا يدفع أحد في التعادل."],
    ] },
    { h: "المباريات", items: [
      ["PH-9.1", "المباراة عدد من الجولات. وإن كان لها هدف بالتون تنتهي أبكر، بعد الجولة التي تبلغ فيها النتيجة الجارية لمقعد ما ذلك الهدف."],
      ["PH-9.2", "يُستخرج موزّع الجولة الأولى من بذرتها. الفائز بجولة يوزّع التالية؛ وبعد التعادل يوزّع المقعد الذي بعد الموزّع."],
      ["PH-9.3", "نتيجتك الجارية هي مجموع مدفوعاتك في الجولات التي لُعبت."],
    ] },
  ],
};

const PH_FI = {
  title: "Paohuzi — näin tässä pöydässä pelataan",
  intro: "Kolme pelaajaa, kahdeksankymmentä pitkää korttia ja kilpa seitsemän ryhmän kokoamisesta, joiden arvo on vähintään viisitoista huxia. Jokaisella säännöllä on tunnus, jonka pöytä mainitsee hylätessään siirron tai ratkaistessaan oton.",
  sections: [
    { h: "Kortit", items: [
      ["PH-1.1", "Arvot yhdestä kymmeneen kahtena kokona, pieninä (一–十) ja isoina (壹–拾), kutakin neljä kappaletta: kahdeksankymmentä korttia."],
      ["PH-1.2", "Kaksi korttia ovat samat vain, jos koko ja arvo täsmäävät. Pieni viitonen ja iso viitonen ovat eri lajeja."],
      ["PH-1.3", "Jokaisella fyysisellä kortilla on oma numeronsa, joten loki seuraa jokaista kappaletta."],
    ] },
    { h: "Jako", items: [
      ["PH-2.1", "Paikat 0, 1 ja 2 pelaavat tässä järjestyksessä kierros kierrokselta."],
      ["PH-2.2", "Jaon siemen valitsee jakajan ja sekoittaa pakan; molemmat voi tarkistaa jälkikäteen."],
      ["PH-2.3", "Jakaja saa sekoitetun pakan 21 ensimmäistä korttia, seuraava paikka 20 ja sitä seuraava 20; viimeiset 19 ovat nostopakka."],
      ["PH-2.4", "Jakajan 21. kortti käännetään kaikkien nähtäväksi, mutta se pysyy jakajan kädessä."],
      ["PH-2.5", "Neljä samaa korttia aloituskädessä asetetaan heti esille ti:nä. Kolme samaa muodostaa kanin: se pysyy piilossa, eikä sitä saa purkaa eikä poistaa."],
      ["PH-2.6", "Jos aloittaa kolmella ti:llä tai viidellä kanilla, voittaa heti (taivaallinen voitto)."],
      ["PH-2.7", "Muuten jakaja aloittaa poistamalla kortin, paitsi jos hänellä on jo oikea määrä kortteja; silloin seuraava paikka kääntää ensin."],
    ] },
    { h: "Ryhmät ja huxit", p: "Huxit ovat ryhmän pisteet; isot kortit ovat arvokkaampia kuin pienet.", items: [
      ["PH-3", "Ti 9/12 · pao 6/9 · wei 3/6 · kan 3/6 · peng 1/3 · chi 1-2-3 tai 2-7-10 samaa kokoa 3/6 · muu chi 0 · pari 0 (pieni/iso)."],
      ["PH-3.1", "Chi on kolme peräkkäistä arvoa samaa kokoa, tai 2-7-10 samaa kokoa, tai kolme samanarvoista korttia sekakokoa (kaksi isoa ja pieni tai kaksi pientä ja iso)."],
    ] },
    { h: "Voittaminen", items: [
      ["PH-4.1", "Voitat seitsemällä ryhmällä (esillä olevat yhdistelmät, piilokortit ja voittokortti), joiden arvo on vähintään 15 huxia."],
      ["PH-4.2", "Jos sinulla on neljän kortin ryhmä (ti tai pao), tasan yhden seitsemästä ryhmästä on oltava pari; muuten kaikki seitsemän ovat kolmen kortin ryhmiä."],
      ["PH-4.3", "Jokainen ensimmäisen jälkeinen neljän kortin ryhmä sallii yhden kortin lisää."],
      ["PH-4.4", "Esillä olevat yhdistelmät pysyvät ennallaan eikä kania pureta; piilokortit ja voittokortti jaetaan ryhmiin."],
      ["PH-4.5", "Jos kortit voi ryhmitellä usealla tavalla, lasketaan se, joka antaa eniten huxia."],
      ["PH-4.6", "Voittaa voi vain pakasta käännetyllä kortilla (omalla tai toisen), ei koskaan poistetulla, taivaallista voittoa lukuun ottamatta."],
      ["PH-4.7", "Kuollut käsi ei voi voittaa. Voitto on vapaaehtoinen: voit ohittaa."],
    ] },
    { h: "Vuoro", items: [
      ["PH-5.1", "Vuorollasi käännät pakan päällimmäisen kortin. Se ei tule käteesi; jos kukaan ei ota sitä, se menee riviisi ja seuraava paikka kääntää."],
      ["PH-5.2", "Yhdistelmän jälkeen poistat kortin vain, jos sinulla on nyt enemmän kuin tavoitteesi (kaksikymmentä, plus yksi jokaista ensimmäisen jälkeistä neljän kortin ryhmää kohden). Chi, peng ja wei vaativat aina poiston."],
      ["PH-5.3", "Poisto tehdään vapaista piilokorteista, ei koskaan kanista, ja kaikki näkevät sen."],
      ["PH-5.4", "Peli jatkuu paikasta, joka seuraa kääntäjää, poistajaa tai poistotta yhdistelmän tehnyttä; välissä olevat ohitetaan."],
      ["PH-5.5", "Jos pakka loppuu eikä viimeinen kortti tuo voittajaa, jako päättyy tasapeliin."],
    ] },
    { h: "Otot", items: [
      ["PH-6.1", "Pakollinen: jos kääntämäsi kortti sopii kädessäsi olevaan kaniin, syntyy ti; jos pariin, syntyy wei. Sinulta ei kysytä ensin."],
      ["PH-6.2", "Käännetty kortti: kuka tahansa voi voittaa; toisen paikan kan tai kenen tahansa esillä oleva wei tai peng voi ottaa sen paona; toinen paikka, jolla on pari, voi ottaa pengin; kääntäjä ja seuraava paikka voivat ottaa chin."],
      ["PH-6.3", "Poistettu kortti: pao piilossa olevaan kaniin tai esillä olevaan weihin, peng parilla, ja chi vain poistajaa seuraavalle paikalle. Ei voittoa."],
      ["PH-6.4", "Jos usea paikka haluaa kortin: voitto ohittaa paon ja pengin, jotka ohittavat chin. Tasatilanteessa kortin saa vuorojärjestyksessä ensimmäinen. Ikkuna sulkeutuu heti, kun mikään vastaamaton paikka ei enää voisi ohittaa parasta vastausta; siihen asti vastaukset ovat salaisia."],
      ["PH-6.5", "Bi: jos otat chin kortilla ja sinulla on kädessä lisää samaa lajia, jokaisen kappaleen on mentävä samalla kertaa esille pantavaan toiseen chihin. Jos se ei onnistu, chiä ei saa."],
      ["PH-6.6", "Chiä tai pengiä ei saa ottaa, jos sen jälkeen ei jää mitään poistettavaa. Jos pakollinen yhdistelmä johtaa siihen, käsi kuolee: se vain kääntää ja voi yhä muodostaa ti:n tai paon."],
      ["PH-6.7", "Chou: kun ohitat chin tai pengin jostakin lajista tai poistat sitä itse, et saa enää ottaa siitä chiä etkä pengiä tässä jaossa. Voitto, ti, wei ja pao ovat yhä sallittuja."],
    ] },
    { h: "Mitä näet", items: [
      ["PH-7.1", "Kaikki näkevät käännetyt ja poistetut kortit, esillä olevat yhdistelmät, jakajan avoimen kortin, kunkin piilokorttien määrän, pakan koon ja kenen vuoro on."],
      ["PH-7.2", "Vain sinä näet piilokorttisi, kanisi, ottovaihtoehtosi ja vastauksesi, kunnes ikkuna sulkeutuu."],
      ["PH-7.3", "Kukaan ei näe pakan järjestystä, muiden käsiä tai siementä ennen jaon loppua."],
    ] },
    { h: "Pisteet", items: [
      ["PH-8.1", "Lasketaan voittavan ryhmittelyn huxit yhteen."],
      ["PH-8.2", "Alle 15 huxia ei ole voitto."],
      ["PH-8.3", "Tun: 15–17 huxia on 1 tun, 18–20 on 2, ja jokainen lisä-3 huxia tuo yhden lisää: tun = 1 + (huxi − 15) ÷ 3 alaspäin pyöristettynä."],
      ["PH-8.4", "Molemmat vastustajat maksavat voittajalle tunin verran. Tasapelissä kukaan ei maksa."],
    ] },
    { h: "Ottelut", items: [
      ["PH-9.1", "Ottelu on jokin määrä jakoja. Jos sillä on tavoite tuneina, se päättyy aiemmin, sen jaon jälkeen, jossa jonkin paikan juokseva pistemäärä yltää tavoitteeseen."],
      ["PH-9.2", "Ensimmäisen jaon jakaja saadaan sen siemenestä. Jaon voittaja jakaa seuraavan; tasapelin jälkeen jakaa jakajaa seuraava paikka."],
      ["PH-9.3", "Juokseva pistemääräsi on maksujesi summa pelatuista jaoista."],
    ] },
  ],
};

export const RULES = { en: PH_EN, pt: PH_PT, nl: PH_NL, ar: PH_AR, fi: PH_FI };


// What this game adds to a table rule's text on the table rules page, per language.
export const TABLE_NOTES = {
  en: { "TB-2.5": "In Paohuzi, when a discard is due: the highest-numbered card the seat may discard." },
  pt: { "TB-2.5": "No Paohuzi, quando é devido um descarte: a carta de número mais alto que o lugar pode descartar." },
  nl: { "TB-2.5": "Bij Paohuzi, als er afgelegd moet worden: de kaart met het hoogste nummer die de plaats mag afleggen." },
  ar: { "TB-2.5": "وفي باوهوزي حين يجب الرمي: الورقة ذات الرقم الأعلى التي يحق للمقعد رميها." },
  fi: { "TB-2.5": "Paohuzissa, kun on poistettava: suurinumeroisin kortti, jonka paikka saa poistaa." },
};
