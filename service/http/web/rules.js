// The rules every game shares, written for this table from docs/rules/table.md (ids match the
// server's errors and audit), the protocol's refusals (DS), and ruleText, the text of any rule id:
// a game's own rules are its module's (games/<name>/rules.js).
import { getLang } from "./i18n.js";
import { PEOPLE_RULES } from "./i18n_people.js";
import { games, gameUi } from "./registry.js";

// The table rules (docs/rules/table.md), the same in both games: seats, clocks, absence, the shared seed.
const TB_EN = {
  title: "Table rules — seats, clocks and a shared shuffle",
  intro: "These rules hold at every table of both games. The game rules say which moves are legal; these say who sits where, how long a seat may take, what the table does for a seat that does not answer, and how several people seed one shuffle. The table quotes their ids when it refuses a request or moves for a seat.",
  sections: [
    { h: "Seats", items: [
      ["TB-1.1", "A seat is held by a person, by a computer of a chosen level, or by nobody yet (an open seat). Whoever joins an open seat makes it a person's seat. The creator of a deal never gets the key of a seat it left open for someone else."],
      ["TB-1.2", "To join you need the seat's invite code, which cannot be guessed and works only once; at a table listed under Open tables any free seat will do. A taken seat is never handed out again: not to a second person, and not to the same join request sent twice. A join sent again with the same invite code and the same name, before that seat has asked to start, gets the same seat and the same key again, so a lost answer does not cost the seat."],
      ["TB-1.3", "You may give your seat a name of 1 to 24 printable characters: no control or formatting characters (such as one that turns the writing direction), no < or >, and no space at either end. Names are public and always shown as plain text."],
      ["TB-1.4", "Until the deal starts, its creator may put a computer of any level in a seat that is still open. The deal starts once no seat is open and every person's seat has asked to start. Once no seat is open, the creator may also put a computer in the seat of a person who joined but has not asked to start within the clock's turn time; if everyone else has asked to start, that deals the cards."],
    ] },
    { h: "Clocks and absence", items: [
      ["TB-2.1", "With two or more people the deal always has a clock; a person alone may choose one. The clock is fixed when the deal is created: seconds for a turn (a discard, a win on your own draw, a kong), seconds for a claim window, and a bank of reserve seconds used once a turn's own time is up. Turn and claim times lie between 2 and 600 seconds, the bank between 0 and 600."],
      ["TB-2.2", "Your time starts when the event that asks you to act is recorded, and runs only while the table is waiting for you. Computers have no clock."],
      ["TB-2.3", "Time beyond a turn's or a window's own seconds comes out of your bank, and the bank is not topped up during the deal. Every deadline follows from the log alone (the recorded times and the clock settings), so every server, before or after a restart, arrives at the same deadline."],
      ["TB-2.4", "A move that arrives after its deadline is refused as too late (DS-17), even if the table has not yet moved for the seat."],
      ["TB-2.5", "When a deadline passes without an answer, the table moves for the seat in one step: it records that the time ran out, then the seat's default move. In a claim window that is a pass, never a claim or a win. Moves the rules force happen as always."],
      ["TB-2.6", "A seat whose time runs out twice in a row is marked away. A computer of the greedy level then plays for it from that seat's own view, one second a move, and the log marks each of those moves as made for an away seat. The person's first move of their own ends the absence."],
      ["TB-2.7", "A deal without a clock that has waited an hour for its person without a move ends as abandoned: nobody pays, and the server seed is revealed as at any other end. Likewise a deal with a clock that is not dealt within ten minutes of its last seat being taken ends as abandoned."],
      ["TB-2.8", "A move says which state of the table it was chosen on. If since then the table has moved for that seat or asked it something new, the move answers something that is gone: it is refused, even if it happens to be allowed now, and nothing is recorded. Other seats' moves alone do not make it stale."],
    ] },
    { h: "One shuffle, several people", items: [
      ["TB-3.1", "Every person at the table adds a client seed when asking to start, so no single party, the server included, can choose the deck. The creator counts as one person, however many seats it holds: a request to start from any of them brings its seed. With one person the seed is sha256(server_seed ‖ utf8(client_seed)), as it always was. With two or more: seed = sha256(server_seed ‖ d_1 ‖ d_2 ‖ …), where each d_i = sha256(utf8(client_seed_i)), in the order of the seats that sent them; hashing each seed first keeps one from running into the next. Each request to start but the last only marks its seat as ready; the last one deals, and the start of the deal and the final reveal list every client seed."],
      ["TB-3.2", "A person's client seed stays secret until the cards are dealt: no view, stream, replay or audit shows it, not even to its own seat. From then on every client seed is in the log for anyone to check."],
    ] },
    { h: "Disputes about time", items: [
      ["TB-4.1", "For every claim window the audit shows how long after the window opened each answer arrived, the deadline of every seat that was asked, and the rule that chose the winning claim. Arrival order decides nothing but lateness (TB-2.4): a pung that came after a chow still takes the discard."],
      ["TB-4.2", "The audit checks every expired clock from the log alone: its deadline follows from TB-2.1 to TB-2.3, it was recorded after that deadline, the seat had not answered, and the move made for the seat is the one TB-2.5 or TB-2.6 gives."],
    ] },
    { h: "Matches", items: [
      ["TB-5.1", "A match is a series of deals at one table with the same seats. Each deal is created when the one before it ends, and the match keeps its own log beside the deals' logs."],
      ["TB-5.2", "Each seat keeps its person or computer for the whole match. A person keeps the seat and its token from deal to deal, with no new invite; each deal still starts with every person's client seed."],
      ["TB-5.3", "A deal that ends abandoned ends the match."],
      ["TB-5.4", "The standings rank the seats by running score, highest first; equal scores share a rank."],
      ["TB-5.5", "The match's audit reads each deal's result again from the deal's own log and checks that the match log agrees: the deals in order, their dealers and rounds, and their results."],
    ] },
  ],
};

const TB_PT = {
  title: "Regras da mesa — lugares, relógios e um baralhar partilhado",
  intro: "Estas regras valem em todas as mesas dos dois jogos. As regras do jogo dizem que jogadas são legais; estas dizem quem se senta onde, quanto tempo um lugar pode demorar, o que a mesa faz por um lugar que não responde e como várias pessoas dão a semente de um só baralhar. A mesa cita os seus códigos quando recusa um pedido ou joga por um lugar.",
  sections: [
    { h: "Lugares", items: [
      ["TB-1.1", "Um lugar é de uma pessoa, de um computador de um nível escolhido, ou ainda de ninguém (um lugar livre). Quem entra num lugar livre torna-o lugar de uma pessoa. Quem cria a mão nunca recebe a chave de um lugar que deixou livre para outra pessoa."],
      ["TB-1.2", "Para entrar é preciso o código de convite do lugar, que não se adivinha e só serve uma vez; numa mesa em Mesas abertas basta um lugar livre. Um lugar ocupado nunca é dado de novo: nem a uma segunda pessoa, nem ao mesmo pedido de entrada enviado duas vezes. Um pedido de entrada enviado de novo com o mesmo código e o mesmo nome, antes de esse lugar pedir para começar, recebe o mesmo lugar e a mesma chave, para que uma resposta perdida não custe o lugar."],
      ["TB-1.3", "Pode dar ao seu lugar um nome de 1 a 24 caracteres imprimíveis: sem caracteres de controlo ou de formatação (como um que inverte o sentido da escrita), sem < nem >, e sem espaço em nenhuma das pontas. Os nomes são públicos e mostrados sempre como texto simples."],
      ["TB-1.4", "Até a mão começar, quem a criou pode pôr um computador de qualquer nível num lugar ainda livre. A mão começa quando não houver lugar livre e o lugar de cada pessoa tiver pedido para começar. Quando não houver lugar livre, quem criou a mão pode também pôr um computador no lugar de uma pessoa que entrou mas não pediu para começar dentro do tempo de jogada do relógio; se todos os outros já pediram, isso dá as cartas."],
    ] },
    { h: "Relógios e ausência", items: [
      ["TB-2.1", "Com duas ou mais pessoas a mão tem sempre relógio; uma pessoa sozinha pode escolher tê-lo. O relógio fica fixado quando a mão é criada: segundos por vez (um descarte, uma vitória na própria tirada, um kong), segundos por janela de reclamação, e uma reserva de segundos usada quando o tempo próprio de uma vez acaba. Os tempos de vez e de reclamação vão de 2 a 600 segundos, a reserva de 0 a 600."],
      ["TB-2.2", "O seu tempo começa quando fica registado o evento que lhe pede para jogar, e só corre enquanto a mesa espera por si. Os computadores não têm relógio."],
      ["TB-2.3", "O tempo além dos segundos próprios de uma vez ou de uma janela sai da sua reserva, e a reserva não é reposta durante a mão. Cada prazo resulta só do registo (as horas registadas e as definições do relógio), por isso todos os servidores, antes ou depois de um reinício, chegam ao mesmo prazo."],
      ["TB-2.4", "Uma jogada que chega depois do prazo é recusada por atraso (DS-17), mesmo que a mesa ainda não tenha jogado pelo lugar."],
      ["TB-2.5", "Quando um prazo passa sem resposta, a mesa joga pelo lugar num só passo: regista que o tempo acabou e depois a jogada por omissão do lugar. Numa janela de reclamação é passar, nunca reclamar nem ganhar. As jogadas que as regras impõem fazem-se como sempre."],
      ["TB-2.6", "Um lugar cujo tempo acaba duas vezes seguidas fica marcado como ausente. Um computador de nível «guloso» joga então por ele a partir da vista desse lugar, um segundo por jogada, e o registo marca cada uma dessas jogadas como feita por um lugar ausente. A primeira jogada da própria pessoa acaba com a ausência."],
      ["TB-2.7", "Uma mão sem relógio que esperou uma hora pela sua pessoa sem nenhuma jogada termina como abandonada: ninguém paga, e a semente do servidor é revelada como em qualquer outro fim. Do mesmo modo, uma mão com relógio que não é dada dez minutos depois de ocupado o último lugar termina como abandonada."],
      ["TB-2.8", "Uma jogada diz em que estado da mesa foi escolhida. Se desde então a mesa jogou por esse lugar ou lhe perguntou algo novo, a jogada responde a algo que já passou: é recusada, mesmo que agora fosse permitida, e nada é registado. Jogadas de outros lugares, por si, não a tornam antiga."],
    ] },
    { h: "Um baralhar, várias pessoas", items: [
      ["TB-3.1", "Cada pessoa à mesa junta uma semente de cliente ao pedir para começar, para que ninguém sozinho, nem o servidor, possa escolher o baralho. Quem criou a mesa conta como uma pessoa, por muitos lugares que tenha: um pedido para começar de qualquer deles traz a sua semente. Com uma pessoa a semente é sha256(server_seed ‖ utf8(client_seed)), como sempre foi. Com duas ou mais: seed = sha256(server_seed ‖ d_1 ‖ d_2 ‖ …), em que cada d_i = sha256(utf8(client_seed_i)), pela ordem dos lugares que as enviaram; fazer primeiro o hash de cada semente impede que uma se confunda com a seguinte. Cada pedido para começar, menos o último, só marca o seu lugar como pronto; o último dá as cartas, e o início da mão e a revelação final listam todas as sementes de cliente."],
      ["TB-3.2", "A semente de cliente de uma pessoa fica secreta até as cartas serem dadas: nenhuma vista, transmissão, repetição ou auditoria a mostra, nem ao próprio lugar. A partir daí todas as sementes de cliente estão no registo para quem as quiser verificar."],
    ] },
    { h: "Disputas sobre o tempo", items: [
      ["TB-4.1", "Para cada janela de reclamação a auditoria mostra quanto tempo depois de a janela abrir chegou cada resposta, o prazo de cada lugar a quem se perguntou, e a regra que escolheu a reclamação vencedora. A ordem de chegada só decide o atraso (TB-2.4): um pung que chegou depois de um chow fica mesmo assim com o descarte."],
      ["TB-4.2", "A auditoria verifica cada relógio esgotado só a partir do registo: o prazo resulta de TB-2.1 a TB-2.3, foi registado depois desse prazo, o lugar não tinha respondido, e a jogada feita pelo lugar é a que TB-2.5 ou TB-2.6 manda."],
    ] },
    { h: "Partidas", items: [
      ["TB-5.1", "Uma partida é uma série de mãos numa mesa com os mesmos lugares. Cada mão é criada quando a anterior acaba, e a partida tem o seu próprio registo ao lado dos registos das mãos."],
      ["TB-5.2", "Cada lugar fica com a sua pessoa ou o seu computador durante toda a partida. Uma pessoa mantém o lugar e o seu token de mão para mão, sem novo convite; cada mão começa mesmo assim com a semente de cada pessoa."],
      ["TB-5.3", "Uma mão que acaba abandonada acaba a partida."],
      ["TB-5.4", "A classificação ordena os lugares pela pontuação acumulada, da maior para a menor; pontuações iguais partilham a posição."],
      ["TB-5.5", "A auditoria da partida relê o resultado de cada mão no registo da própria mão e verifica que o registo da partida concorda: as mãos por ordem, os seus distribuidores e rondas, e os seus resultados."],
    ] },
  ],
};

const TB_NL = {
  title: "Tafelregels — plaatsen, klokken en samen schudden",
  intro: "Deze regels gelden aan elke tafel van beide spellen. De spelregels zeggen welke zetten mogen; deze zeggen wie waar zit, hoe lang een plaats mag nadenken, wat de tafel doet voor een plaats die niet antwoordt, en hoe meerdere mensen samen de seed van één keer schudden leveren. De tafel noemt hun code als ze een verzoek weigert of voor een plaats speelt.",
  sections: [
    { h: "Plaatsen", items: [
      ["TB-1.1", "Op een plaats zit een persoon, een computer van een gekozen niveau, of nog niemand (een vrije plaats). Wie op een vrije plaats aanschuift, maakt er de plaats van een persoon van. Wie het spel maakt, krijgt nooit de sleutel van een plaats die hij voor een ander vrij liet."],
      ["TB-1.2", "Om aan te schuiven heb je de uitnodigingscode van de plaats nodig; die is niet te raden en werkt maar één keer. Aan een tafel bij Open tafels is een vrije plaats genoeg. Een bezette plaats wordt nooit opnieuw uitgegeven: niet aan een tweede persoon en niet aan hetzelfde verzoek dat twee keer binnenkomt. Een verzoek dat opnieuw binnenkomt met dezelfde code en dezelfde naam, voordat die plaats heeft gevraagd om te beginnen, krijgt dezelfde plaats en dezelfde sleutel, zodat een verloren antwoord de plaats niet kost."],
      ["TB-1.3", "Je mag je plaats een naam geven van 1 tot 24 afdrukbare tekens: geen stuur- of opmaaktekens (zoals een teken dat de schrijfrichting omdraait), geen < of >, en geen spatie aan het begin of eind. Namen zijn openbaar en worden altijd als gewone tekst getoond."],
      ["TB-1.4", "Tot het spel begint, mag wie het maakte een computer van elk niveau op een nog vrije plaats zetten. Het spel begint zodra geen plaats meer vrij is en de plaats van elke persoon heeft gevraagd om te beginnen. Zodra geen plaats meer vrij is, mag de maker ook een computer zetten op de plaats van iemand die aanschoof maar binnen de beurttijd van de klok niet vroeg om te beginnen; hebben alle anderen dat wel gedaan, dan worden de kaarten meteen gedeeld."],
    ] },
    { h: "Klokken en afwezigheid", items: [
      ["TB-2.1", "Met twee of meer mensen heeft het spel altijd een klok; wie alleen speelt, mag er een kiezen. De klok ligt vast bij het maken van het spel: seconden voor een beurt (een afgooi, winnen op je eigen trekking, een kong), seconden voor een claimvenster, en een reserve aan seconden voor als de eigen tijd van een beurt op is. Beurt- en claimtijden liggen tussen 2 en 600 seconden, de reserve tussen 0 en 600."],
      ["TB-2.2", "Je tijd begint wanneer de gebeurtenis die je vraagt te spelen is vastgelegd, en loopt alleen terwijl de tafel op jou wacht. Computers hebben geen klok."],
      ["TB-2.3", "Tijd boven de eigen seconden van een beurt of venster gaat van je reserve af, en de reserve wordt tijdens het spel niet aangevuld. Elke deadline volgt uit het log alleen (de vastgelegde tijden en de klokinstellingen), zodat elke server, voor of na een herstart, op dezelfde deadline uitkomt."],
      ["TB-2.4", "Een zet die na zijn deadline binnenkomt, wordt als te laat geweigerd (DS-17), ook als de tafel nog niet voor de plaats heeft gespeeld."],
      ["TB-2.5", "Gaat een deadline onbeantwoord voorbij, dan speelt de tafel in één stap voor de plaats: ze legt vast dat de tijd om was, en daarna de standaardzet van de plaats. In een claimvenster is dat passen, nooit een claim of een winst. Zetten die de regels afdwingen gaan zoals altijd."],
      ["TB-2.6", "Een plaats waarvan de tijd twee keer op rij om is, wordt als afwezig gemarkeerd. Een computer van het niveau „gretig” speelt er dan voor vanuit de eigen blik van die plaats, één seconde per zet, en het log markeert elk van die zetten als gedaan voor een afwezige plaats. De eerste eigen zet van de persoon maakt een eind aan de afwezigheid."],
      ["TB-2.7", "Een spel zonder klok dat een uur op zijn persoon heeft gewacht zonder één zet, eindigt als opgegeven: niemand betaalt, en de serverseed wordt onthuld zoals bij elk ander einde. Zo eindigt ook een spel met klok dat niet binnen tien minuten na het bezetten van de laatste plaats is gedeeld als opgegeven."],
      ["TB-2.8", "Een zet zegt op welke stand van de tafel hij gekozen is. Heeft de tafel sindsdien voor die plaats gezet of haar iets nieuws gevraagd, dan beantwoordt de zet iets wat voorbij is: hij wordt geweigerd, ook als hij nu toevallig mag, en er wordt niets vastgelegd. Zetten van andere plaatsen alleen maken hem niet verouderd."],
    ] },
    { h: "Eén keer schudden, meerdere mensen", items: [
      ["TB-3.1", "Elke persoon aan tafel geeft een eigen seed mee bij het vragen om te beginnen, zodat geen enkele partij, ook de server niet, de kaartverdeling kan kiezen. Wie de tafel maakte, telt als één persoon, hoeveel plaatsen hij ook heeft: een verzoek om te beginnen vanaf elk ervan brengt zijn seed. Met één persoon is de seed sha256(server_seed ‖ utf8(client_seed)), zoals altijd. Met twee of meer: seed = sha256(server_seed ‖ d_1 ‖ d_2 ‖ …), waarbij elke d_i = sha256(utf8(client_seed_i)), in de volgorde van de plaatsen die ze stuurden; door eerst elke seed te hashen loopt de ene niet over in de volgende. Elk verzoek om te beginnen behalve het laatste markeert alleen zijn plaats als klaar; het laatste deelt, en het begin van het spel en de laatste onthulling noemen elke seed."],
      ["TB-3.2", "De seed van een persoon blijft geheim tot er gedeeld is: geen weergave, stream, herhaling of audit toont hem, zelfs niet aan zijn eigen plaats. Daarna staat elke seed in het log, voor iedereen om na te rekenen."],
    ] },
    { h: "Geschillen over tijd", items: [
      ["TB-4.1", "Voor elk claimvenster toont de audit hoe lang na het openen elk antwoord binnenkwam, de deadline van elke gevraagde plaats, en de regel die de winnende claim koos. De volgorde van binnenkomst beslist alleen of iets te laat is (TB-2.4): een pung die na een chow kwam, krijgt toch wat er afgelegd werd."],
      ["TB-4.2", "De audit controleert elke verlopen klok uit het log alleen: de deadline volgt uit TB-2.1 tot TB-2.3, hij is na die deadline vastgelegd, de plaats had niet geantwoord, en de zet die voor de plaats is gedaan, is die van TB-2.5 of TB-2.6."],
    ] },
    { h: "Partijen", items: [
      ["TB-5.1", "Een partij is een reeks spellen aan één tafel met dezelfde plaatsen. Elk spel wordt gemaakt als het vorige eindigt, en de partij heeft een eigen log naast de logs van de spellen."],
      ["TB-5.2", "Elke plaats houdt de hele partij dezelfde persoon of computer. Een persoon houdt de plaats en het token van spel tot spel, zonder nieuwe uitnodiging; elk spel begint toch met de seed van elke persoon."],
      ["TB-5.3", "Een spel dat verlaten eindigt, beëindigt de partij."],
      ["TB-5.4", "De stand rangschikt de plaatsen op lopende score, hoogste eerst; gelijke scores delen een plaats."],
      ["TB-5.5", "De audit van de partij leest het resultaat van elk spel opnieuw uit het eigen log van dat spel en controleert dat het log van de partij klopt: de spellen op volgorde, hun gevers en rondes, en hun resultaten."],
    ] },
  ],
};

// the formulas are isolated left to right (U+2066 … U+2069) inside the right-to-left text
const TB_AR = {
  title: "قواعد الطاولة — المقاعد والساعات والخلط المشترك",
  intro: "تسري هذه القواعد على كل طاولة في اللعبتين. تحدد قواعد اللعبة الحركات المسموحة؛ أما هذه فتحدد من يجلس أين، وكم من الوقت يحق لكل مقعد، وما تفعله الطاولة عن مقعد لا يجيب، وكيف يشترك عدة أشخاص في بذرة خلط واحد. تذكر الطاولة معرّفاتها حين ترفض طلبًا أو تلعب عن مقعد.",
  sections: [
    { h: "المقاعد", items: [
      ["TB-1.1", "يشغل المقعدَ شخصٌ، أو حاسوب بمستوى مختار، أو لا أحد بعد (مقعد شاغر). من ينضم إلى مقعد شاغر يجعله مقعد شخص. ولا يتسلّم منشئ الجولة أبدًا مفتاح مقعد تركه شاغرًا لغيره."],
      ["TB-1.2", "للانضمام تحتاج رمز دعوة المقعد، وهو لا يُخمَّن ولا يصلح إلا مرة واحدة؛ وعلى طاولة معروضة في الطاولات المفتوحة يكفي مقعد شاغر. لا يُعطى المقعد المشغول مرة أخرى أبدًا: لا لشخص ثانٍ، ولا لطلب الانضمام نفسه إن وصل مرتين. طلب الانضمام الذي يُرسل مرة أخرى بالرمز نفسه والاسم نفسه، قبل أن يطلب ذلك المقعد البدء، يحصل على المقعد نفسه والمفتاح نفسه، فلا يضيع المقعد بضياع الجواب."],
      ["TB-1.3", "يمكنك أن تسمّي مقعدك باسم من 1 إلى 24 حرفًا قابلًا للطباعة: بلا محارف تحكم أو تنسيق (كمحرف يقلب اتجاه الكتابة)، وبلا < أو >، وبلا مسافة في أوله أو آخره. الأسماء علنية وتُعرض دائمًا نصًا عاديًا."],
      ["TB-1.4", "حتى تبدأ الجولة يحق لمنشئها أن يضع حاسوبًا بأي مستوى في مقعد ما زال شاغرًا. تبدأ الجولة حين لا يبقى مقعد شاغر ويكون مقعد كل شخص قد طلب البدء. حين لا يبقى مقعد شاغر، يحق للمنشئ أيضًا أن يضع حاسوبًا في مقعد شخص انضم ولم يطلب البدء خلال وقت الدور في الساعة؛ وإن كان الباقون جميعًا قد طلبوا البدء، تُوزَّع الأوراق بذلك."],
    ] },
    { h: "الساعات والغياب", items: [
      ["TB-2.1", "مع شخصين أو أكثر للجولة ساعة دائمًا؛ ويحق للشخص الوحيد أن يختار ساعة. تُحدَّد الساعة عند إنشاء الجولة: ثوانٍ للدور (رمي، أو فوز بسحبك أنت، أو «كونغ»)، وثوانٍ لنافذة المطالبة، واحتياط من الثواني يُستعمل حين ينفد وقت الدور نفسه. وقتا الدور والمطالبة بين 2 و600 ثانية، والاحتياط بين 0 و600."],
      ["TB-2.2", "يبدأ وقتك حين يُسجَّل الحدث الذي يطلب منك أن تلعب، ولا يجري إلا والطاولة تنتظرك. لا ساعة للحاسوب."],
      ["TB-2.3", "ما يزيد على ثواني الدور أو النافذة نفسها يُؤخذ من احتياطك، ولا يُجدَّد الاحتياط أثناء الجولة. كل موعد نهائي يُستخرج من السجل وحده (الأوقات المسجلة وإعدادات الساعة)، فيصل كل خادم، قبل إعادة التشغيل أو بعدها، إلى الموعد نفسه."],
      ["TB-2.4", "تُرفض الحركة التي تصل بعد موعدها النهائي لتأخرها (DS-17)، حتى لو لم تكن الطاولة قد لعبت عن المقعد بعد."],
      ["TB-2.5", "حين يمر الموعد النهائي بلا جواب تلعب الطاولة عن المقعد في خطوة واحدة: تسجّل أن الوقت انتهى، ثم الحركة الافتراضية للمقعد. في نافذة المطالبة هي التمرير، لا مطالبة ولا فوز أبدًا. أما الحركات التي تفرضها القواعد فتجري كالعادة."],
      ["TB-2.6", "المقعد الذي ينتهي وقته مرتين متتاليتين يُعلَّم غائبًا. عندها يلعب عنه حاسوب بمستوى «جشِع» من منظور ذلك المقعد نفسه، ثانية لكل حركة، ويعلّم السجل كل حركة منها بأنها لُعبت عن مقعد غائب. وأول حركة من الشخص نفسه تنهي الغياب."],
      ["TB-2.7", "الجولة بلا ساعة التي انتظرت صاحبها ساعة كاملة دون أي حركة تنتهي متروكة: لا يدفع أحد، وتُكشف بذرة الخادم كما في أي نهاية أخرى. وكذلك الجولة ذات الساعة التي لا تُوزَّع خلال عشر دقائق من شغل آخر مقعد فيها تنتهي متروكة."],
      ["TB-2.8", "كل حركة تذكر حالة الطاولة التي اختيرت عليها. فإن لعبت الطاولة عن ذلك المقعد أو سألته شيئًا جديدًا منذ ذلك الحين، فالحركة تجيب عن أمر مضى: تُرفض وإن صادف أنها مسموحة الآن، ولا يُسجَّل شيء. حركات المقاعد الأخرى وحدها لا تجعلها قديمة."],
    ] },
    { h: "خلط واحد لعدة أشخاص", items: [
      ["TB-3.1", "يضيف كل شخص على الطاولة بذرة عميل حين يطلب البدء، فلا يستطيع طرف واحد، ولا الخادم نفسه، أن يختار الرزمة. يُعدّ منشئ الطاولة شخصًا واحدًا مهما كان عدد مقاعده: طلب البدء من أي منها يحمل بذرته. مع شخص واحد تكون البذرة \u2066sha256(server_seed ‖ utf8(client_seed))\u2069 كما كانت دائمًا. ومع شخصين أو أكثر: \u2066seed = sha256(server_seed ‖ d_1 ‖ d_2 ‖ …)\u2069 حيث \u2066d_i = sha256(utf8(client_seed_i))\u2069 لكل بذرة، بترتيب المقاعد التي أرسلتها؛ وتجزئة كل بذرة أولًا تمنع أن تختلط بذرة بالتي تليها. كل طلب بدء عدا الأخير لا يفعل إلا أن يعلّم مقعده مستعدًا؛ والأخير يوزّع، ويذكر بدء الجولة والكشف الأخير كل بذور العملاء."],
      ["TB-3.2", "تبقى بذرة عميل الشخص سرية حتى تُوزَّع الأوراق: لا يُظهرها أي عرض أو بث أو إعادة أو تدقيق، ولا حتى لمقعدها. ومن بعد ذلك تكون كل بذور العملاء في السجل ليتحقق منها أي أحد."],
    ] },
    { h: "الخلاف على الوقت", items: [
      ["TB-4.1", "لكل نافذة مطالبة يبيّن التدقيق كم مضى على فتح النافذة حين وصل كل جواب، والموعد النهائي لكل مقعد سُئل، والقاعدة التي اختارت المطالبة الفائزة. ترتيب الوصول لا يقرر شيئًا سوى التأخر (TB-2.4): «بونغ» وصلت بعد «تشاو» تأخذ الرمية مع ذلك."],
      ["TB-4.2", "يتحقق التدقيق من كل ساعة انتهت من السجل وحده: موعدها النهائي يُستخرج من TB-2.1 إلى TB-2.3، وقد سُجّل انتهاؤها بعد ذلك الموعد، ولم يكن المقعد قد أجاب، والحركة التي لُعبت عنه هي التي تقضي بها TB-2.5 أو TB-2.6."],
    ] },
    { h: "المباريات", items: [
      ["TB-5.1", "المباراة سلسلة جولات على طاولة واحدة بالمقاعد نفسها. تُنشأ كل جولة حين تنتهي التي قبلها، وللمباراة سجلها الخاص بجانب سجلات الجولات."],
      ["TB-5.2", "يبقى لكل مقعد شخصه أو حاسوبه طوال المباراة. يحتفظ الشخص بمقعده ورمزه من جولة إلى أخرى دون دعوة جديدة؛ وتبدأ كل جولة مع ذلك ببذرة كل شخص."],
      ["TB-5.3", "الجولة التي تنتهي متروكة تُنهي المباراة."],
      ["TB-5.4", "ترتّب الترتيبات المقاعد حسب النتيجة الجارية، الأعلى أولًا؛ والنتائج المتساوية تتشارك المرتبة."],
      ["TB-5.5", "يعيد تدقيق المباراة قراءة نتيجة كل جولة من سجل الجولة نفسها ويتحقق من أن سجل المباراة يوافقه: الجولات بترتيبها، وموزّعوها وجولاتها، ونتائجها."],
    ] },
  ],
};

const TB_FI = {
  title: "Pöydän säännöt — paikat, kellot ja yhteinen sekoitus",
  intro: "Nämä säännöt ovat voimassa jokaisessa pöydässä molemmissa peleissä. Pelin säännöt kertovat, mitkä siirrot ovat sallittuja; nämä kertovat, kuka istuu missä, kauanko paikka saa miettiä, mitä pöytä tekee paikan puolesta, joka ei vastaa, ja miten usea ihminen antaa siemenen samaan sekoitukseen. Pöytä mainitsee niiden tunnuksen, kun se hylkää pyynnön tai pelaa paikan puolesta.",
  sections: [
    { h: "Paikat", items: [
      ["TB-1.1", "Paikalla istuu ihminen, valitun tason tietokone tai ei vielä ketään (vapaa paikka). Joka liittyy vapaalle paikalle, tekee siitä ihmisen paikan. Jaon luoja ei koskaan saa avainta paikkaan, jonka se jätti vapaaksi jollekulle toiselle."],
      ["TB-1.2", "Liittymiseen tarvitaan paikan kutsukoodi, jota ei voi arvata ja joka kelpaa vain kerran; avoimissa pöydissä näkyvässä pöydässä riittää vapaa paikka. Otettua paikkaa ei anneta koskaan uudelleen: ei toiselle ihmiselle eikä samalle kahdesti saapuvalle liittymispyynnölle. Samalla kutsukoodilla ja samalla nimellä uudelleen lähetetty liittymispyyntö saa saman paikan ja saman avaimen, kunnes paikka on pyytänyt aloittamaan, joten kadonnut vastaus ei vie paikkaa."],
      ["TB-1.3", "Voit antaa paikallesi nimen, jossa on 1–24 tulostettavaa merkkiä: ei ohjaus- tai muotoilumerkkejä (kuten kirjoitussuunnan kääntävää merkkiä), ei merkkejä < tai >, eikä välilyöntiä alussa tai lopussa. Nimet ovat julkisia ja näkyvät aina pelkkänä tekstinä."],
      ["TB-1.4", "Ennen jaon alkua sen luoja voi panna minkä tahansa tason tietokoneen paikalle, joka on yhä vapaa. Jako alkaa, kun yhtään paikkaa ei ole vapaana ja jokaisen ihmisen paikka on pyytänyt aloittamaan. Kun yhtään paikkaa ei ole vapaana, luoja voi panna tietokoneen myös sen ihmisen paikalle, joka liittyi mutta ei pyytänyt aloittamaan kellon vuoroajan kuluessa; jos kaikki muut ovat jo pyytäneet, kortit jaetaan samalla."],
    ] },
    { h: "Kellot ja poissaolo", items: [
      ["TB-2.1", "Kun ihmisiä on kaksi tai enemmän, jaossa on aina kello; yksin pelaava voi valita kellon. Kello asetetaan jakoa luotaessa: sekunnit vuoroon (poisto, voitto omalla nostolla, kong), sekunnit ottoikkunaan ja sekuntivaranto, jota käytetään, kun vuoron oma aika on loppu. Vuoro- ja ottoajat ovat 2–600 sekuntia, varanto 0–600."],
      ["TB-2.2", "Aikasi alkaa, kun tapahtuma, joka pyytää sinua pelaamaan, on kirjattu, ja kuluu vain pöydän odottaessa sinua. Tietokoneilla ei ole kelloa."],
      ["TB-2.3", "Vuoron tai ikkunan omat sekunnit ylittävä aika otetaan varannostasi, eikä varantoa täydennetä jaon aikana. Jokainen määräaika seuraa pelkästä lokista (kirjatuista ajoista ja kellon asetuksista), joten jokainen palvelin päätyy samaan määräaikaan ennen uudelleenkäynnistystä tai sen jälkeen."],
      ["TB-2.4", "Määräajan jälkeen saapuva siirto hylätään myöhästyneenä (DS-17), vaikka pöytä ei olisi vielä pelannut paikan puolesta."],
      ["TB-2.5", "Kun määräaika menee ohi ilman vastausta, pöytä pelaa paikan puolesta yhdellä kertaa: se kirjaa ajan loppuneen ja sitten paikan oletussiirron. Ottoikkunassa se on ohitus, ei koskaan otto eikä voitto. Sääntöjen pakottamat siirrot tapahtuvat kuten aina."],
      ["TB-2.6", "Paikka, jonka aika loppuu kahdesti peräkkäin, merkitään poissaolevaksi. Silloin tason ”ahne” tietokone pelaa sen puolesta paikan omasta näkymästä, sekunti siirtoa kohden, ja loki merkitsee jokaisen tällaisen siirron poissaolevan paikan puolesta tehdyksi. Ihmisen ensimmäinen oma siirto päättää poissaolon."],
      ["TB-2.7", "Kelloton jako, joka on odottanut ihmistään tunnin ilman yhtään siirtoa, päättyy keskeytettynä: kukaan ei maksa, ja palvelimen siemen paljastetaan kuten minkä tahansa muun lopun jälkeen. Samoin kellollinen jako, jota ei jaeta kymmenen minuutin kuluessa viimeisen paikan täyttymisestä, päättyy keskeytettynä."],
      ["TB-2.8", "Siirto kertoo, minkä pöydän tilan perusteella se valittiin. Jos pöytä on sen jälkeen siirtänyt paikan puolesta tai kysynyt siltä jotain uutta, siirto vastaa johonkin mennyttä: se hylätään, vaikka se sattuisi nyt olemaan sallittu, eikä mitään kirjata. Muiden paikkojen siirrot eivät yksinään tee siitä vanhentunutta."],
    ] },
    { h: "Yksi sekoitus, monta ihmistä", items: [
      ["TB-3.1", "Jokainen pöydän ihminen antaa asiakassiemenen pyytäessään aloittamaan, jottei kukaan yksin, ei edes palvelin, voi valita pakkaa. Pöydän luoja lasketaan yhdeksi ihmiseksi, olipa sillä kuinka monta paikkaa tahansa: aloituspyyntö miltä tahansa niistä tuo sen siemenen. Yhden ihmisen kanssa siemen on sha256(server_seed ‖ utf8(client_seed)), kuten aina ennenkin. Kahden tai useamman kanssa: seed = sha256(server_seed ‖ d_1 ‖ d_2 ‖ …), missä kukin d_i = sha256(utf8(client_seed_i)), siemenet lähettäneiden paikkojen järjestyksessä; kun jokainen siemen tiivistetään ensin, yksi ei voi valua seuraavaan. Jokainen aloituspyyntö viimeistä lukuun ottamatta vain merkitsee paikkansa valmiiksi; viimeinen jakaa, ja jaon alku sekä lopullinen paljastus luettelevat kaikki asiakassiemenet."],
      ["TB-3.2", "Ihmisen asiakassiemen pysyy salassa, kunnes kortit on jaettu: mikään näkymä, virta, uusinta tai tarkastus ei näytä sitä, ei edes sen omalle paikalle. Siitä lähtien jokainen asiakassiemen on lokissa kenen tahansa tarkistettavana."],
    ] },
    { h: "Kiistat ajasta", items: [
      ["TB-4.1", "Jokaisesta ottoikkunasta tarkastus näyttää, kuinka pian ikkunan avautumisen jälkeen kukin vastaus saapui, jokaisen kysytyn paikan määräajan ja säännön, joka valitsi voittavan oton. Saapumisjärjestys ratkaisee vain myöhästymisen (TB-2.4): chow'n jälkeen tullut pung saa silti poiston."],
      ["TB-4.2", "Tarkastus tarkistaa jokaisen loppuneen kellon pelkästä lokista: sen määräaika seuraa säännöistä TB-2.1–TB-2.3, se kirjattiin määräajan jälkeen, paikka ei ollut vastannut, ja paikan puolesta tehty siirto on se, jonka TB-2.5 tai TB-2.6 määrää."],
    ] },
    { h: "Ottelut", items: [
      ["TB-5.1", "Ottelu on sarja jakoja yhdessä pöydässä samoin paikoin. Kukin jako luodaan, kun edellinen päättyy, ja ottelulla on oma lokinsa jakojen lokien rinnalla."],
      ["TB-5.2", "Jokaisella paikalla on sama ihminen tai tietokone koko ottelun ajan. Ihminen pitää paikkansa ja sen tunnisteen jaosta toiseen ilman uutta kutsua; jokainen jako alkaa silti jokaisen ihmisen siemenellä."],
      ["TB-5.3", "Hylättynä päättyvä jako päättää ottelun."],
      ["TB-5.4", "Sijoitukset järjestävät paikat juoksevan pistemäärän mukaan, suurin ensin; samat pisteet jakavat sijan."],
      ["TB-5.5", "Ottelun tarkastus lukee kunkin jaon tuloksen uudelleen jaon omasta lokista ja tarkistaa, että ottelun loki on samaa mieltä: jaot järjestyksessä, niiden jakajat ja kierrokset sekä tulokset."],
    ] },
  ],
};

/** The table rules, per language. */
export const TABLE_RULES = { en: TB_EN, pt: TB_PT, nl: TB_NL, ar: TB_AR, fi: TB_FI };

/** What the registered games add to table rule `id` in language `lang` ("" when none does):
 * each game's `tableNotes` (games/<name>/rules.js), in the lobby's order. */
export const tableNotes = (id, lang) => games().map((g) => g.tableNotes && ((g.tableNotes[lang] || g.tableNotes.en || {})[id])).filter(Boolean).join(" ");

/** A rules page's text per language: "table" for the table rules, else the game's own (its
 * module's `rules`, games/<name>/rules.js); undefined for a page nobody registered. */
export const rulesOf = (page) => (page === "table" ? TABLE_RULES : gameUi(page)?.rules);

const PROTOCOL = {
  en: { "DS-1": "This server does not know that game.", "DS-9": "Fixed decks need a server started with --dev.", "DS-10": "The request is too large.", "DS-13": "This move id was already used for another move; the table sends a new one.", "DS-14": "The server is serving as many live tables as it can; try again in a moment.", "DS-15": "This deal has been played again already; the new deal is linked.", "DS-2": "The deal has not started yet, or has started already.", "DS-3": "It is not this seat's move (or the claim window has moved on).", "DS-4": "The table moved on since your last view; look again.", "DS-5": "The request was not understood.", "DS-6": "The deal is over.", "DS-7": "No such deal.", "DS-8": "This browser does not hold a seat token for this deal.", "DS-11": "Too many deals in a minute; wait a moment.", "DS-12": "The event store is unreachable; try again." },
  pt: { "DS-1": "Este servidor não conhece esse jogo.", "DS-9": "Baralhos fixos só com um servidor iniciado com --dev.", "DS-10": "O pedido é grande demais.", "DS-13": "Este id de jogada já foi usado para outra jogada; a mesa envia um novo.", "DS-14": "O servidor já serve todas as mesas ao vivo que pode; tente de novo daqui a pouco.", "DS-15": "Esta mão já foi jogada de novo; a nova mão está ligada.", "DS-2": "A mão ainda não começou, ou já começou.", "DS-3": "Não é a vez deste lugar (ou a janela já avançou).", "DS-4": "A mesa avançou desde a sua última vista; veja de novo.", "DS-5": "O pedido não foi entendido.", "DS-6": "A mão terminou.", "DS-7": "Essa mão não existe.", "DS-8": "Este navegador não tem chave de lugar para esta mão.", "DS-11": "Demasiadas mãos num minuto; aguarde.", "DS-12": "O registo de eventos não responde; tente de novo." },
  nl: { "DS-1": "Deze server kent dat spel niet.", "DS-9": "Vaste kaartverdelingen alleen met een server die met --dev is gestart.", "DS-10": "Het verzoek is te groot.", "DS-13": "Deze zet-id is al voor een andere zet gebruikt; de tafel stuurt een nieuwe.", "DS-14": "De server bedient al zoveel live tafels als hij kan; probeer het zo opnieuw.", "DS-15": "Dit spel is al opnieuw gespeeld; het nieuwe spel is gekoppeld.", "DS-2": "Het spel is nog niet begonnen, of al wel.", "DS-3": "Deze plaats is niet aan zet (of het venster is al verder).", "DS-4": "De tafel is verder gegaan sinds je laatste blik; kijk opnieuw.", "DS-5": "Het verzoek werd niet begrepen.", "DS-6": "Het spel is voorbij.", "DS-7": "Dat spel bestaat niet.", "DS-8": "Deze browser heeft geen plaatssleutel voor dit spel.", "DS-11": "Te veel spellen in een minuut; wacht even.", "DS-12": "De gebeurtenisopslag is onbereikbaar; probeer opnieuw." },
  ar: { "DS-1": "لا يعرف هذا الخادم تلك اللعبة.", "DS-9": "الرزم الثابتة تحتاج خادمًا بدأ بالخيار --dev.", "DS-10": "الطلب كبير جدًا.", "DS-13": "استُخدم معرّف هذه الحركة لحركة أخرى؛ ترسل الطاولة معرّفًا جديدًا.", "DS-14": "يخدم الخادم أقصى عدد من الطاولات المباشرة؛ أعد المحاولة بعد قليل.", "DS-15": "أُعيد لعب هذه الجولة من قبل؛ الجولة الجديدة مرتبطة بها.", "DS-2": "لم تبدأ الجولة بعد، أو بدأت فعلًا.", "DS-3": "ليس دور هذا المقعد (أو تجاوزت النافذة).", "DS-4": "تغيّرت الطاولة منذ آخر عرض؛ انظر مجددًا.", "DS-5": "لم يُفهم الطلب.", "DS-6": "انتهت الجولة.", "DS-7": "لا توجد جولة كهذه.", "DS-8": "لا يحمل هذا المتصفح مفتاح مقعد لهذه الجولة.", "DS-11": "جولات كثيرة في دقيقة؛ انتظر قليلًا.", "DS-12": "مخزن الأحداث لا يستجيب؛ أعد المحاولة." },
  fi: { "DS-1": "Tämä palvelin ei tunne sitä peliä.", "DS-9": "Kiinteät pakat vaativat palvelimen, joka on käynnistetty valitsimella --dev.", "DS-10": "Pyyntö on liian suuri.", "DS-13": "Tämä siirron tunnus on jo käytetty toiseen siirtoon; pöytä lähettää uuden.", "DS-14": "Palvelin palvelee jo niin monta suoraa pöytää kuin pystyy; yritä hetken päästä uudelleen.", "DS-15": "Tämä jako on jo pelattu uudelleen; uusi jako on linkitetty.", "DS-2": "Jako ei ole vielä alkanut, tai se on jo alkanut.", "DS-3": "Tämä paikka ei ole vuorossa (tai ikkuna on jo edennyt).", "DS-4": "Pöytä on edennyt edellisen näkymäsi jälkeen; katso uudelleen.", "DS-5": "Pyyntöä ei ymmärretty.", "DS-6": "Jako on päättynyt.", "DS-7": "Tällaista jakoa ei ole.", "DS-8": "Tällä selaimella ei ole paikkatunnusta tähän jakoon.", "DS-11": "Liian monta jakoa minuutissa; odota hetki.", "DS-12": "Tapahtumavarasto ei vastaa; yritä uudelleen." },
};

// The text of one rule in the current language ("" if unknown).
export function ruleText(game, id) {
  if (!id) return "";
  const lang = getLang();
  if (id.startsWith("DS-") || id.startsWith("TB-")) {
    const own = { ...PROTOCOL.en, ...PEOPLE_RULES.en, ...(PROTOCOL[lang] || {}), ...(PEOPLE_RULES[lang] || {}) };
    return own[id] || (id.startsWith("TB-") && own[id.replace(/\.\d+$/, "")]) || "";
  }
  // the game whose rule ids start as this one does (the first game's when none does)
  const g = game || (games().find((x) => id.startsWith(x.rulePrefix)) || games()[0]).name;
  const all = rulesOf(g);
  const doc = all && (all[lang] || all.en);
  if (!doc) return "";
  for (const s of doc.sections) for (const [rid, text] of s.items) if (rid === id) return text;
  // fall back to the parent rule (x.1 -> x)
  const parent = id.replace(/\.\d+$/, "");
  if (parent !== id) return ruleText(g, parent);
  return "";
}
