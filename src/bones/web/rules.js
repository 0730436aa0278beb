// The rules of each variant as players read them in the app (RULES.md, shortened).

export const RULES = {
  en: {
    common: [
      "28 tiles, double-six. A tile fits an open end when one half matches it; its other half becomes the new end. Doubles lie crosswise.",
      "If you can play, you must. Forced moves (the opening tile, drawing, passing) happen by themselves.",
      "A round ends when someone plays their last tile (domino) or nobody can move (blocked).",
    ],
    draw: [
      "2 players get 7 tiles, 3 or 4 players get 5; the rest is the boneyard.",
      "Who cannot play draws until a tile fits and plays it; with the boneyard empty, they pass.",
      "First round: the highest double leads (else the strongest tile). Later rounds: the last winner leads any tile.",
      "Domino: the winner scores all pips left in the other hands. Blocked: the lowest hand wins the others' pips minus its own; a tie scores nothing.",
      "First to the target (50, 100 or 150) wins the match.",
    ],
    block: [
      "As the draw game, but nothing is drawn: who cannot play passes.",
      "2 players: 7 tiles each; 3 players: 6 each; 4 players: 7 each. Tiles left out are never seen.",
    ],
    kozel: [
      "4 players in 2 pairs; partners sit opposite. 7 tiles each, no boneyard; who cannot play passes.",
      "A deal with 5 doubles, or 6 tiles of one number, in a hand is dealt again.",
      "First round: 1-1 leads. Later: who ended the last round leads any tile.",
      "Points are penalties. Domino: the other pair writes the pips left in both its hands (a lone 0-0 counts 25, a lone 6-6 counts 50).",
      "Fish (blocked): the pair with more pips writes all pips left. A tie lays eggs: the total goes to the pair that loses the next round.",
      "13 rule: while a pair is at 0, a penalty below 13 is not written.",
      "The pair that first passes the target (101 for 100) is the goat.",
    ],
    allfives: [
      "2 players, 7 tiles each, drawing as in the draw game. The strongest tile leads every deal.",
      "The first double is the spinner: once both its sides hold a tile, it also takes tiles up and down.",
      "After each tile, if the open ends add up to a multiple of 5, the player scores that sum. A double at an end counts both halves.",
      "Domino: the winner scores the opponent's pips, rounded down to a multiple of 5.",
      "Blocked: the one ahead in the score wins the opponent's pips minus their own.",
      "First to 100 wins, even in the middle of a deal.",
    ],
  },
  de: {
    common: [
      "28 Steine, Doppel-Sechs. Ein Stein passt an ein offenes Ende, wenn eine Hälfte gleich ist; die andere Hälfte wird das neue Ende. Pasche liegen quer.",
      "Wer legen kann, muss legen. Erzwungene Züge (Eröffnung, Ziehen, Passen) geschehen von selbst.",
      "Eine Runde endet, wenn jemand seinen letzten Stein legt (Domino) oder niemand mehr kann (blockiert).",
    ],
    draw: [
      "Bei 2 Spielern 7 Steine, bei 3 oder 4 Spielern 5; der Rest ist der Talon.",
      "Wer nicht legen kann, zieht, bis ein Stein passt, und legt ihn; ist der Talon leer, passt er.",
      "Erste Runde: der höchste Pasch eröffnet (sonst der stärkste Stein). Danach eröffnet der letzte Sieger mit einem beliebigen Stein.",
      "Domino: der Sieger erhält alle Augen der anderen Hände. Blockiert: die niedrigste Hand erhält die fremden Augen minus die eigenen; bei Gleichstand niemand.",
      "Wer zuerst das Ziel (50, 100 oder 150) erreicht, gewinnt.",
    ],
    block: [
      "Wie das Ziehspiel, aber ohne Ziehen: wer nicht legen kann, passt.",
      "2 Spieler: je 7 Steine; 3 Spieler: je 6; 4 Spieler: je 7. Übrige Steine bleiben verdeckt.",
    ],
    kozel: [
      "4 Spieler in 2 Paaren, Partner sitzen gegenüber. Je 7 Steine, kein Talon; wer nicht kann, passt.",
      "Hat eine Hand 5 Pasche oder 6 Steine einer Zahl, wird neu gegeben.",
      "Erste Runde: 1-1 eröffnet. Danach eröffnet, wer die letzte Runde beendet hat.",
      "Punkte sind Strafpunkte. Domino: das andere Paar notiert die Augen seiner beiden Hände (eine einzelne 0-0 zählt 25, eine einzelne 6-6 zählt 50).",
      "Fisch (blockiert): das Paar mit mehr Augen notiert alle Augen. Bei Gleichstand gibt es Eier: die Summe geht an das Paar, das die nächste Runde verliert.",
      "13er-Regel: solange ein Paar bei 0 steht, werden Strafen unter 13 nicht notiert.",
      "Das Paar, das zuerst das Ziel überschreitet (101 bei 100), ist der Bock.",
    ],
    allfives: [
      "2 Spieler, je 7 Steine, Ziehen wie im Ziehspiel. Der stärkste Stein eröffnet jede Runde.",
      "Der erste Pasch ist der Spinner: sind beide Seiten belegt, nimmt er auch oben und unten Steine.",
      "Ist nach einem Stein die Summe der offenen Enden ein Vielfaches von 5, erhält der Spieler diese Summe. Ein Pasch am Ende zählt doppelt.",
      "Domino: der Sieger erhält die Augen des Gegners, auf ein Vielfaches von 5 abgerundet.",
      "Blockiert: wer im Stand vorne liegt, erhält die gegnerischen Augen minus die eigenen.",
      "Wer zuerst 100 erreicht, gewinnt, auch mitten in der Runde.",
    ],
  },
  pl: {
    common: [
      "28 kamieni, podwójna szóstka. Kamień pasuje do wolnego końca, gdy jedna połowa jest równa; druga połowa staje się nowym końcem. Dublety leżą w poprzek.",
      "Kto może zagrać, musi. Ruchy wymuszone (otwarcie, dobieranie, pas) dzieją się same.",
      "Runda kończy się, gdy ktoś wyłoży ostatni kamień (domino) albo nikt nie może zagrać (blokada).",
    ],
    draw: [
      "2 graczy dostaje po 7 kamieni, 3 lub 4 graczy po 5; reszta to talia.",
      "Kto nie może zagrać, dobiera, aż kamień pasuje, i kładzie go; gdy talia jest pusta, pasuje.",
      "Pierwsza runda: zaczyna najwyższy dublet (inaczej najmocniejszy kamień). Potem zaczyna ostatni zwycięzca dowolnym kamieniem.",
      "Domino: zwycięzca dostaje wszystkie oczka z rąk pozostałych. Blokada: najniższa ręka dostaje oczka innych minus własne; przy remisie nikt.",
      "Wygrywa, kto pierwszy osiągnie cel (50, 100 lub 150).",
    ],
    block: [
      "Jak gra z dobieraniem, ale bez dobierania: kto nie może, pasuje.",
      "2 graczy: po 7 kamieni; 3 graczy: po 6; 4 graczy: po 7. Pozostałe kamienie nie biorą udziału.",
    ],
    kozel: [
      "4 graczy w 2 parach, partnerzy siedzą naprzeciw. Po 7 kamieni, bez talii; kto nie może, pasuje.",
      "Gdy ręka ma 5 dubletów albo 6 kamieni z jedną liczbą, rozdanie się powtarza.",
      "Pierwsza runda: zaczyna 1-1. Potem zaczyna ten, kto zakończył poprzednią rundę.",
      "Punkty są karne. Domino: druga para zapisuje oczka z obu swoich rąk (samotne 0-0 liczy się 25, samotne 6-6 liczy się 50).",
      "Ryba (blokada): para z większą liczbą oczek zapisuje wszystkie oczka. Przy remisie są jajka: suma przechodzi na parę, która przegra następną rundę.",
      "Zasada 13: dopóki para ma 0, kara poniżej 13 nie jest zapisywana.",
      "Para, która pierwsza przekroczy cel (101 przy 100), jest kozłem.",
    ],
    allfives: [
      "2 graczy, po 7 kamieni, dobieranie jak w grze z dobieraniem. Najmocniejszy kamień zaczyna każde rozdanie.",
      "Pierwszy dublet to spinner: gdy obie jego strony są zajęte, przyjmuje też kamienie u góry i u dołu.",
      "Jeśli po kamieniu suma wolnych końców jest wielokrotnością 5, gracz dostaje tę sumę. Dublet na końcu liczy się podwójnie.",
      "Domino: zwycięzca dostaje oczka przeciwnika zaokrąglone w dół do wielokrotności 5.",
      "Blokada: prowadzący w wyniku dostaje oczka przeciwnika minus własne.",
      "Wygrywa, kto pierwszy osiągnie 100, nawet w środku rozdania.",
    ],
  },
  ru: {
    common: [
      "28 камней, дубль-шесть. Камень ставится к открытому концу, если одна половина совпадает; другая половина становится новым концом. Дубли кладутся поперёк.",
      "Если можете походить, обязаны. Вынужденные ходы (первый камень, добор, пропуск) делаются сами.",
      "Кон кончается, когда кто-то выкладывает последний камень (домино) или ходить некому (рыба).",
    ],
    draw: [
      "Двоим по 7 камней, троим или четверым по 5; остальное — базар.",
      "Кто не может походить, берёт из базара, пока камень не подойдёт, и ставит его; если базар пуст, пропускает.",
      "Первый кон начинает старший дубль (иначе самый сильный камень). Дальше начинает победитель прошлого кона любым камнем.",
      "Домино: победитель получает все очки на руках у других. Рыба: меньшая рука получает очки соперников минус свои; при ничьей никто.",
      "Побеждает тот, кто первым наберёт цель (50, 100 или 150).",
    ],
    block: [
      "Как игра с добором, но без базара: кто не может, пропускает.",
      "Двое: по 7 камней; трое: по 6; четверо: по 7. Лишние камни не участвуют.",
    ],
    kozel: [
      "Четверо в двух парах, партнёры сидят напротив. По 7 камней, базара нет; кто не может, пропускает.",
      "Если в руке 5 дублей или 6 камней с одним числом, раздают заново.",
      "Первый кон начинает 1-1. Дальше начинает тот, кто закончил прошлый кон.",
      "Очки — штрафные. Домино: другая пара записывает очки обеих своих рук (одинокий 0-0 — 25, одинокий 6-6 — 50).",
      "Рыба: пара, у которой больше очков, записывает все очки. При равенстве — яйца: сумма достаётся паре, проигравшей следующий кон.",
      "Правило 13: пока у пары 0, штраф меньше 13 не записывается.",
      "Пара, первой перевалившая за цель (101 при 100), — козёл.",
    ],
    allfives: [
      "Двое, по 7 камней, добор как в игре с добором. Каждый кон начинает самый сильный камень.",
      "Первый дубль — спиннер: когда обе его стороны заняты, к нему ставят и сверху, и снизу.",
      "Если после хода сумма открытых концов кратна 5, игрок получает эту сумму. Дубль на конце считается дважды.",
      "Домино: победитель получает очки соперника, округлённые вниз до кратного 5.",
      "Рыба: лидер по счёту получает очки соперника минус свои.",
      "Побеждает первый, набравший 100, даже посреди кона.",
    ],
  },
};
