// Rules pages, written for this table from docs/rules (ids match the server's errors and audit):
// each game's rules (PH, MC) and the table rules (TB) the two games share.
import { getLang } from "./i18n.js";
import { PEOPLE_RULES } from "./i18n_people.js";
import { games } from "./registry.js";

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
      ["TB-2.5", "When a deadline passes without an answer, the table moves for the seat in one step: it records that the time ran out, then the seat's default move. In a claim window that is a pass, never a claim or a win. In Mahjong on your own turn: no win and no kong; the tile just drawn is discarded, or, after a claim, the concealed tile with the highest number. In Paohuzi, when a discard is due: the highest-numbered card the seat may discard. Moves the rules force (Paohuzi's compulsory ti and wei, Mahjong's flower replacement) happen as always."],
      ["TB-2.6", "A seat whose time runs out twice in a row is marked away. A computer of the greedy level then plays for it from that seat's own view, one second a move, and the log marks each of those moves as made for an away seat. The person's first move of their own ends the absence."],
      ["TB-2.7", "A deal without a clock that has waited an hour for its person without a move ends as abandoned: nobody pays, and the server seed is revealed as at any other end. Likewise a deal with a clock that is not dealt within ten minutes of its last seat being taken ends as abandoned."],
      ["TB-2.8", "A move says which state of the table it was chosen on. If since then the table has moved for that seat or asked it something new, the move answers something that is gone: it is refused, even if it happens to be allowed now, and nothing is recorded. Other seats' moves alone do not make it stale."],
    ] },
    { h: "One shuffle, several people", items: [
      ["TB-3.1", "Every person at the table adds a client seed when asking to start, so no single party, the server included, can choose the deck. The creator counts as one person, however many seats it holds: a request to start from any of them brings its seed. With one person the seed is sha256(server_seed ‖ utf8(client_seed)), as it always was. With two or more: seed = sha256(server_seed ‖ d_1 ‖ d_2 ‖ …), where each d_i = sha256(utf8(client_seed_i)), in the order of the seats that sent them; hashing each seed first keeps one from running into the next. Each request to start but the last only marks its seat as ready; the last one deals, and the start of the deal and the final reveal list every client seed."],
      ["TB-3.2", "A person's client seed stays secret until the cards are dealt: no view, stream, replay or audit shows it, not even to its own seat. From then on every client seed is in the log for anyone to check."],
    ] },
    { h: "Disputes about time", items: [
      ["TB-4.1", "For every claim window the audit shows how long after the window opened each answer arrived, the deadline of every seat that was asked, and the rule that chose the winning claim. Arrival order decides nothing but lateness (TB-2.4): a pung that came after a chow still takes the discard (PH-6.4, MC-3.2)."],
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
      ["TB-2.5", "Quando um prazo passa sem resposta, a mesa joga pelo lugar num só passo: regista que o tempo acabou e depois a jogada por omissão do lugar. Numa janela de reclamação é passar, nunca reclamar nem ganhar. No Mahjong, na própria vez: nem vitória nem kong; descarta-se a peça acabada de tirar ou, depois de uma reclamação, a peça oculta de número mais alto. No Paohuzi, quando é devido um descarte: a carta de número mais alto que o lugar pode descartar. As jogadas que as regras impõem (o ti e o wei obrigatórios do Paohuzi, a substituição das flores no Mahjong) fazem-se como sempre."],
      ["TB-2.6", "Um lugar cujo tempo acaba duas vezes seguidas fica marcado como ausente. Um computador de nível «guloso» joga então por ele a partir da vista desse lugar, um segundo por jogada, e o registo marca cada uma dessas jogadas como feita por um lugar ausente. A primeira jogada da própria pessoa acaba com a ausência."],
      ["TB-2.7", "Uma mão sem relógio que esperou uma hora pela sua pessoa sem nenhuma jogada termina como abandonada: ninguém paga, e a semente do servidor é revelada como em qualquer outro fim. Do mesmo modo, uma mão com relógio que não é dada dez minutos depois de ocupado o último lugar termina como abandonada."],
      ["TB-2.8", "Uma jogada diz em que estado da mesa foi escolhida. Se desde então a mesa jogou por esse lugar ou lhe perguntou algo novo, a jogada responde a algo que já passou: é recusada, mesmo que agora fosse permitida, e nada é registado. Jogadas de outros lugares, por si, não a tornam antiga."],
    ] },
    { h: "Um baralhar, várias pessoas", items: [
      ["TB-3.1", "Cada pessoa à mesa junta uma semente de cliente ao pedir para começar, para que ninguém sozinho, nem o servidor, possa escolher o baralho. Quem criou a mesa conta como uma pessoa, por muitos lugares que tenha: um pedido para começar de qualquer deles traz a sua semente. Com uma pessoa a semente é sha256(server_seed ‖ utf8(client_seed)), como sempre foi. Com duas ou mais: seed = sha256(server_seed ‖ d_1 ‖ d_2 ‖ …), em que cada d_i = sha256(utf8(client_seed_i)), pela ordem dos lugares que as enviaram; fazer primeiro o hash de cada semente impede que uma se confunda com a seguinte. Cada pedido para começar, menos o último, só marca o seu lugar como pronto; o último dá as cartas, e o início da mão e a revelação final listam todas as sementes de cliente."],
      ["TB-3.2", "A semente de cliente de uma pessoa fica secreta até as cartas serem dadas: nenhuma vista, transmissão, repetição ou auditoria a mostra, nem ao próprio lugar. A partir daí todas as sementes de cliente estão no registo para quem as quiser verificar."],
    ] },
    { h: "Disputas sobre o tempo", items: [
      ["TB-4.1", "Para cada janela de reclamação a auditoria mostra quanto tempo depois de a janela abrir chegou cada resposta, o prazo de cada lugar a quem se perguntou, e a regra que escolheu a reclamação vencedora. A ordem de chegada só decide o atraso (TB-2.4): um pung que chegou depois de um chow fica mesmo assim com o descarte (PH-6.4, MC-3.2)."],
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
      ["TB-2.5", "Gaat een deadline onbeantwoord voorbij, dan speelt de tafel in één stap voor de plaats: ze legt vast dat de tijd om was, en daarna de standaardzet van de plaats. In een claimvenster is dat passen, nooit een claim of een winst. Bij mahjong in je eigen beurt: geen winst en geen kong; de net getrokken steen wordt afgelegd, of na een claim de verborgen steen met het hoogste nummer. Bij Paohuzi, als er afgelegd moet worden: de kaart met het hoogste nummer die de plaats mag afleggen. Zetten die de regels afdwingen (de verplichte ti en wei van Paohuzi, het vervangen van bloemen bij mahjong) gaan zoals altijd."],
      ["TB-2.6", "Een plaats waarvan de tijd twee keer op rij om is, wordt als afwezig gemarkeerd. Een computer van het niveau „gretig” speelt er dan voor vanuit de eigen blik van die plaats, één seconde per zet, en het log markeert elk van die zetten als gedaan voor een afwezige plaats. De eerste eigen zet van de persoon maakt een eind aan de afwezigheid."],
      ["TB-2.7", "Een spel zonder klok dat een uur op zijn persoon heeft gewacht zonder één zet, eindigt als opgegeven: niemand betaalt, en de serverseed wordt onthuld zoals bij elk ander einde. Zo eindigt ook een spel met klok dat niet binnen tien minuten na het bezetten van de laatste plaats is gedeeld als opgegeven."],
      ["TB-2.8", "Een zet zegt op welke stand van de tafel hij gekozen is. Heeft de tafel sindsdien voor die plaats gezet of haar iets nieuws gevraagd, dan beantwoordt de zet iets wat voorbij is: hij wordt geweigerd, ook als hij nu toevallig mag, en er wordt niets vastgelegd. Zetten van andere plaatsen alleen maken hem niet verouderd."],
    ] },
    { h: "Eén keer schudden, meerdere mensen", items: [
      ["TB-3.1", "Elke persoon aan tafel geeft een eigen seed mee bij het vragen om te beginnen, zodat geen enkele partij, ook de server niet, de kaartverdeling kan kiezen. Wie de tafel maakte, telt als één persoon, hoeveel plaatsen hij ook heeft: een verzoek om te beginnen vanaf elk ervan brengt zijn seed. Met één persoon is de seed sha256(server_seed ‖ utf8(client_seed)), zoals altijd. Met twee of meer: seed = sha256(server_seed ‖ d_1 ‖ d_2 ‖ …), waarbij elke d_i = sha256(utf8(client_seed_i)), in de volgorde van de plaatsen die ze stuurden; door eerst elke seed te hashen loopt de ene niet over in de volgende. Elk verzoek om te beginnen behalve het laatste markeert alleen zijn plaats als klaar; het laatste deelt, en het begin van het spel en de laatste onthulling noemen elke seed."],
      ["TB-3.2", "De seed van een persoon blijft geheim tot er gedeeld is: geen weergave, stream, herhaling of audit toont hem, zelfs niet aan zijn eigen plaats. Daarna staat elke seed in het log, voor iedereen om na te rekenen."],
    ] },
    { h: "Geschillen over tijd", items: [
      ["TB-4.1", "Voor elk claimvenster toont de audit hoe lang na het openen elk antwoord binnenkwam, de deadline van elke gevraagde plaats, en de regel die de winnende claim koos. De volgorde van binnenkomst beslist alleen of iets te laat is (TB-2.4): een pung die na een chow kwam, krijgt toch wat er afgelegd werd (PH-6.4, MC-3.2)."],
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
      ["TB-2.5", "حين يمر الموعد النهائي بلا جواب تلعب الطاولة عن المقعد في خطوة واحدة: تسجّل أن الوقت انتهى، ثم الحركة الافتراضية للمقعد. في نافذة المطالبة هي التمرير، لا مطالبة ولا فوز أبدًا. وفي الماجونغ في دورك: لا فوز ولا «كونغ»؛ تُرمى القطعة المسحوبة للتو، أو بعد مطالبةٍ القطعةُ المخفية ذات الرقم الأعلى. وفي باوهوزي حين يجب الرمي: الورقة ذات الرقم الأعلى التي يحق للمقعد رميها. أما الحركات التي تفرضها القواعد («تي» و«وي» الإلزاميتان في باوهوزي، واستبدال الزهور في الماجونغ) فتجري كالعادة."],
      ["TB-2.6", "المقعد الذي ينتهي وقته مرتين متتاليتين يُعلَّم غائبًا. عندها يلعب عنه حاسوب بمستوى «جشِع» من منظور ذلك المقعد نفسه، ثانية لكل حركة، ويعلّم السجل كل حركة منها بأنها لُعبت عن مقعد غائب. وأول حركة من الشخص نفسه تنهي الغياب."],
      ["TB-2.7", "الجولة بلا ساعة التي انتظرت صاحبها ساعة كاملة دون أي حركة تنتهي متروكة: لا يدفع أحد، وتُكشف بذرة الخادم كما في أي نهاية أخرى. وكذلك الجولة ذات الساعة التي لا تُوزَّع خلال عشر دقائق من شغل آخر مقعد فيها تنتهي متروكة."],
      ["TB-2.8", "كل حركة تذكر حالة الطاولة التي اختيرت عليها. فإن لعبت الطاولة عن ذلك المقعد أو سألته شيئًا جديدًا منذ ذلك الحين، فالحركة تجيب عن أمر مضى: تُرفض وإن صادف أنها مسموحة الآن، ولا يُسجَّل شيء. حركات المقاعد الأخرى وحدها لا تجعلها قديمة."],
    ] },
    { h: "خلط واحد لعدة أشخاص", items: [
      ["TB-3.1", "يضيف كل شخص على الطاولة بذرة عميل حين يطلب البدء، فلا يستطيع طرف واحد، ولا الخادم نفسه، أن يختار الرزمة. يُعدّ منشئ الطاولة شخصًا واحدًا مهما كان عدد مقاعده: طلب البدء من أي منها يحمل بذرته. مع شخص واحد تكون البذرة \u2066sha256(server_seed ‖ utf8(client_seed))\u2069 كما كانت دائمًا. ومع شخصين أو أكثر: \u2066seed = sha256(server_seed ‖ d_1 ‖ d_2 ‖ …)\u2069 حيث \u2066d_i = sha256(utf8(client_seed_i))\u2069 لكل بذرة، بترتيب المقاعد التي أرسلتها؛ وتجزئة كل بذرة أولًا تمنع أن تختلط بذرة بالتي تليها. كل طلب بدء عدا الأخير لا يفعل إلا أن يعلّم مقعده مستعدًا؛ والأخير يوزّع، ويذكر بدء الجولة والكشف الأخير كل بذور العملاء."],
      ["TB-3.2", "تبقى بذرة عميل الشخص سرية حتى تُوزَّع الأوراق: لا يُظهرها أي عرض أو بث أو إعادة أو تدقيق، ولا حتى لمقعدها. ومن بعد ذلك تكون كل بذور العملاء في السجل ليتحقق منها أي أحد."],
    ] },
    { h: "الخلاف على الوقت", items: [
      ["TB-4.1", "لكل نافذة مطالبة يبيّن التدقيق كم مضى على فتح النافذة حين وصل كل جواب، والموعد النهائي لكل مقعد سُئل، والقاعدة التي اختارت المطالبة الفائزة. ترتيب الوصول لا يقرر شيئًا سوى التأخر (TB-2.4): «بونغ» وصلت بعد «تشاو» تأخذ الرمية مع ذلك (PH-6.4، MC-3.2)."],
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
      ["TB-2.5", "Kun määräaika menee ohi ilman vastausta, pöytä pelaa paikan puolesta yhdellä kertaa: se kirjaa ajan loppuneen ja sitten paikan oletussiirron. Ottoikkunassa se on ohitus, ei koskaan otto eikä voitto. Mahjongissa omalla vuorolla: ei voittoa eikä kongia; juuri nostettu laatta poistetaan, tai oton jälkeen se piilossa oleva laatta, jonka numero on suurin. Paohuzissa, kun on poistettava: suurinumeroisin kortti, jonka paikka saa poistaa. Sääntöjen pakottamat siirrot (Paohuzin pakolliset ti ja wei, mahjongin kukkien korvaus) tapahtuvat kuten aina."],
      ["TB-2.6", "Paikka, jonka aika loppuu kahdesti peräkkäin, merkitään poissaolevaksi. Silloin tason ”ahne” tietokone pelaa sen puolesta paikan omasta näkymästä, sekunti siirtoa kohden, ja loki merkitsee jokaisen tällaisen siirron poissaolevan paikan puolesta tehdyksi. Ihmisen ensimmäinen oma siirto päättää poissaolon."],
      ["TB-2.7", "Kelloton jako, joka on odottanut ihmistään tunnin ilman yhtään siirtoa, päättyy keskeytettynä: kukaan ei maksa, ja palvelimen siemen paljastetaan kuten minkä tahansa muun lopun jälkeen. Samoin kellollinen jako, jota ei jaeta kymmenen minuutin kuluessa viimeisen paikan täyttymisestä, päättyy keskeytettynä."],
      ["TB-2.8", "Siirto kertoo, minkä pöydän tilan perusteella se valittiin. Jos pöytä on sen jälkeen siirtänyt paikan puolesta tai kysynyt siltä jotain uutta, siirto vastaa johonkin mennyttä: se hylätään, vaikka se sattuisi nyt olemaan sallittu, eikä mitään kirjata. Muiden paikkojen siirrot eivät yksinään tee siitä vanhentunutta."],
    ] },
    { h: "Yksi sekoitus, monta ihmistä", items: [
      ["TB-3.1", "Jokainen pöydän ihminen antaa asiakassiemenen pyytäessään aloittamaan, jottei kukaan yksin, ei edes palvelin, voi valita pakkaa. Pöydän luoja lasketaan yhdeksi ihmiseksi, olipa sillä kuinka monta paikkaa tahansa: aloituspyyntö miltä tahansa niistä tuo sen siemenen. Yhden ihmisen kanssa siemen on sha256(server_seed ‖ utf8(client_seed)), kuten aina ennenkin. Kahden tai useamman kanssa: seed = sha256(server_seed ‖ d_1 ‖ d_2 ‖ …), missä kukin d_i = sha256(utf8(client_seed_i)), siemenet lähettäneiden paikkojen järjestyksessä; kun jokainen siemen tiivistetään ensin, yksi ei voi valua seuraavaan. Jokainen aloituspyyntö viimeistä lukuun ottamatta vain merkitsee paikkansa valmiiksi; viimeinen jakaa, ja jaon alku sekä lopullinen paljastus luettelevat kaikki asiakassiemenet."],
      ["TB-3.2", "Ihmisen asiakassiemen pysyy salassa, kunnes kortit on jaettu: mikään näkymä, virta, uusinta tai tarkastus ei näytä sitä, ei edes sen omalle paikalle. Siitä lähtien jokainen asiakassiemen on lokissa kenen tahansa tarkistettavana."],
    ] },
    { h: "Kiistat ajasta", items: [
      ["TB-4.1", "Jokaisesta ottoikkunasta tarkastus näyttää, kuinka pian ikkunan avautumisen jälkeen kukin vastaus saapui, jokaisen kysytyn paikan määräajan ja säännön, joka valitsi voittavan oton. Saapumisjärjestys ratkaisee vain myöhästymisen (TB-2.4): chow'n jälkeen tullut pung saa silti poiston (PH-6.4, MC-3.2)."],
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

export const RULES = {
  paohuzi: { en: PH_EN, pt: PH_PT, nl: PH_NL, ar: PH_AR, fi: PH_FI },
  mcr: { en: MC_EN, pt: MC_PT, nl: MC_NL, ar: MC_AR, fi: MC_FI },
  table: { en: TB_EN, pt: TB_PT, nl: TB_NL, ar: TB_AR, fi: TB_FI },
};

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
  const doc = RULES[g] && (RULES[g][lang] || RULES[g].en);
  if (!doc) return "";
  for (const s of doc.sections) for (const [rid, text] of s.items) if (rid === id) return text;
  // fall back to the parent rule (PH-3.1 -> PH-3)
  const parent = id.replace(/\.\d+$/, "");
  if (parent !== id) return ruleText(g, parent);
  return "";
}

// Huxi of one Paohuzi group (PH-3), as domain/paohuzi/cards.py scores it: (small, big) per type;
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
