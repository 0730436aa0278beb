"""The compiled core of the rollout kernel: a round as one int64 vector, its legal moves,
applying a move, scoring the end, and the playout policies.

Everything here is numba-compiled with an on-disk cache, so only the first call after
installing pays for compiling. The rules are those of ``bones.round`` and
``bones.scoring``, move for move; ``tests/test_kernel.py`` plays both side by side.

A move is a code: ``tile_index * 5 + place`` (place 0 left, 1 right, 2 up, 3 down,
4 a lead), or ``DRAW``, or ``PASS``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bones.kernel.bits import highest, popcount, rand_below, seed_state
from bones.tiles import DOUBLE_SIX, SUIT

# -- the state vector ---------------------------------------------------------------------
HANDS = 0  # 4 slots: a tile mask per seat
PLAYERS = 4
TURN = 5
ENDS = 6  # 4 slots, a place's index apart: the open numbers, -1 where not open
LEFT, RIGHT, UP, DOWN = 6, 7, 8, 9  # the line's ends (from the lead); the arms' (once open)
LEFT_DOUBLE, RIGHT_DOUBLE = 10, 11  # the outermost tile at that end is a double
SPIN = 12  # All Fives: the spinner's number, -1 before the first double
SPIN_LEFT, SPIN_RIGHT = 13, 14  # the spinner is still the outermost tile on that side
UP_TILES, DOWN_TILES = 15, 16
UP_DOUBLE, DOWN_DOUBLE = 17, 18
LINE = 19  # tiles on the line, the lead included
DRAWN, BONE_COUNT = 20, 21
BONE = 22  # 28 slots: the boneyard's tile indices, top first
COUNT = 50  # 4 slots: All Fives count points per seat
LAST = 54  # the seat that placed the last tile
VARIANT = 55  # 0 draw, 1 block, 2 kozel, 3 allfives
TARGET = 56  # the match's target (not Kozel's, a loss), -1 for none; All Fives ends a round there
SCORES = 57  # 4 slots: match scores per side before the round
OTHERS_ONLY = 61  # blocked_scoring "others"
OVER, WINNER, REASON = 62, 63, 64  # WINNER -1: nobody; REASON 0 domino, 1 blocked, 2 target
POINTS = 65  # 4 slots: the award per side
EGGS = 69
ALL = 70  # the union of the hands
SIZE = 71

MOVING = ((HANDS, BONE_COUNT), (COUNT, VARIANT), (OVER, SIZE))
"""The slot ranges a move can change; the rest (the rules, the boneyard, the match's
scores) stay as dealt, so a search that keeps a row per ply copies them into a row once
and after that only these, half the state."""

DRAW_CODE, PASS_CODE = 140, 141
LEAD = 4
DRAW_GAME, BLOCK_GAME, KOZEL, ALLFIVES = 0, 1, 2, 3
DOMINO, BLOCKED, TARGET_REACHED = 0, 1, 2
RANDOM, HEURISTIC = 0, 1
MAX_MOVES = 64  # more than any position's legal moves

# -- tables ---------------------------------------------------------------------------------
HIGH = np.array([t.high for t in DOUBLE_SIX], dtype=np.int64)
LOW = np.array([t.low for t in DOUBLE_SIX], dtype=np.int64)
SUITS = np.array(SUIT, dtype=np.int64)
STRONGEST_FIRST = np.array(
    [t.index for t in sorted(DOUBLE_SIX, key=lambda t: t.strength, reverse=True)], dtype=np.int64)
DOUBLES = np.int64(sum(t.bit for t in DOUBLE_SIX if t.is_double))
ZERO_ZERO, SIX_SIX, ONE_ONE = np.int64(1), np.int64(1 << 27), np.int64(1 << 2)


@njit(cache=True)
def pips(mask: int) -> int:
    total = 0
    for t in range(28):
        if mask >> t & 1:
            total += HIGH[t] + LOW[t]
    return total


@njit(cache=True, inline="always")
def playable(s: np.ndarray) -> int:
    if s[LEFT] < 0:
        return 0
    mask = SUITS[s[LEFT]] | SUITS[s[RIGHT]]
    if s[UP] >= 0:
        mask |= SUITS[s[UP]] | SUITS[s[DOWN]]
    return mask


@njit(cache=True, inline="always")
def legal(s: np.ndarray, moves: np.ndarray) -> int:
    """Write the legal move codes into ``moves`` in Round's order; return how many."""
    if s[OVER]:
        return 0
    hand = s[HANDS + s[TURN]]
    k = 0
    if s[LEFT] < 0:
        for t in range(27, -1, -1):
            if hand >> t & 1:
                moves[k] = t * 5 + LEAD
                k += 1
        return k
    places = 4 if s[UP] >= 0 else 2
    for place in range(places):
        fits = hand & SUITS[s[ENDS + place]]
        while fits:
            t = highest(fits)
            moves[k] = t * 5 + place
            k += 1
            fits ^= np.int64(1) << t
    if k:
        return k
    moves[0] = DRAW_CODE if s[DRAWN] < s[BONE_COUNT] else PASS_CODE
    return 1


@njit(cache=True, inline="always")
def count(s: np.ndarray) -> int:
    """All Fives' count of the open ends."""
    if s[LEFT] < 0:
        return 0
    if s[LINE] == 1:
        return s[LEFT] + s[RIGHT]
    total = s[LEFT] * (2 if s[LEFT_DOUBLE] else 1) + s[RIGHT] * (2 if s[RIGHT_DOUBLE] else 1)
    if s[UP_TILES]:
        total += s[UP] * (2 if s[UP_DOUBLE] else 1)
    if s[DOWN_TILES]:
        total += s[DOWN] * (2 if s[DOWN_DOUBLE] else 1)
    return total


@njit(cache=True, inline="always")
def lay(s: np.ndarray, t: int, place: int) -> None:
    """Put tile ``t`` at ``place`` (or lead it), keeping the spinner's state."""
    high, low = HIGH[t], LOW[t]
    double = high == low
    spinner = s[VARIANT] == ALLFIVES
    if place == LEAD:
        s[LEFT], s[RIGHT] = high, low
        s[LEFT_DOUBLE] = s[RIGHT_DOUBLE] = double
        s[LINE] = 1
        if spinner and double:
            s[SPIN] = high
            s[SPIN_LEFT] = s[SPIN_RIGHT] = 1
        return
    if place == 2:
        s[UP] = high + low - s[UP]
        s[UP_TILES] += 1
        s[UP_DOUBLE] = double
        return
    if place == 3:
        s[DOWN] = high + low - s[DOWN]
        s[DOWN_TILES] += 1
        s[DOWN_DOUBLE] = double
        return
    s[LINE] += 1
    becomes_spinner = spinner and double and s[SPIN] < 0
    if becomes_spinner:
        s[SPIN] = high
    if place == 0:
        s[LEFT] = high + low - s[LEFT]
        s[LEFT_DOUBLE] = double
        s[SPIN_LEFT] = becomes_spinner
    else:
        s[RIGHT] = high + low - s[RIGHT]
        s[RIGHT_DOUBLE] = double
        s[SPIN_RIGHT] = becomes_spinner
    if s[SPIN] >= 0 and s[UP] < 0 and not s[SPIN_LEFT] and not s[SPIN_RIGHT]:
        s[UP] = s[DOWN] = s[SPIN]


@njit(cache=True, inline="always")
def apply(s: np.ndarray, code: int) -> None:
    """Play a legal move (the caller took it from ``legal``)."""
    seat = s[TURN]
    players = s[PLAYERS]
    if code == PASS_CODE:
        s[TURN] = seat + 1 if seat + 1 < players else 0
        return
    if code == DRAW_CODE:
        t = s[BONE + s[DRAWN]]
        s[DRAWN] += 1
        s[HANDS + seat] |= np.int64(1) << t
        s[ALL] |= np.int64(1) << t
        if s[DRAWN] == s[BONE_COUNT] and not s[ALL] & playable(s):
            finish(s, BLOCKED)
        return
    t = code // 5
    lay(s, t, code % 5)
    bit = np.int64(1) << t
    s[HANDS + seat] ^= bit
    s[ALL] ^= bit
    scored = 0
    if s[VARIANT] == ALLFIVES:
        c = count(s)
        if c > 0 and c % 5 == 0:
            scored = c
            s[COUNT + seat] += c
    s[LAST] = seat
    s[TURN] = seat + 1 if seat + 1 < players else 0
    if scored and s[TARGET] >= 0 and s[SCORES + seat] + s[COUNT + seat] >= s[TARGET]:
        finish(s, TARGET_REACHED)
    elif s[HANDS + seat] == 0:
        finish(s, DOMINO)
    elif s[DRAWN] == s[BONE_COUNT] and not s[ALL] & playable(s):
        finish(s, BLOCKED)


@njit(cache=True, inline="always")
def copy_moving(dst: np.ndarray, src: np.ndarray) -> None:
    """Copy the slots a move can change (``MOVING``) from ``src`` to ``dst``."""
    for low, high in MOVING:
        for i in range(low, high):
            dst[i] = src[i]


@njit(cache=True, inline="always")
def kozel_value(hand: int) -> int:
    if hand == ZERO_ZERO:
        return 25
    if hand == SIX_SIX:
        return 50
    return pips(hand)


@njit(cache=True)
def finish(s: np.ndarray, reason: int) -> None:
    """Score the finished round as bones.scoring does."""
    s[OVER], s[REASON], s[EGGS], s[WINNER] = 1, reason, 0, -1
    for side in range(4):
        s[POINTS + side] = 0
    last = s[LAST]
    variant = s[VARIANT]
    if variant == KOZEL:
        pair0 = kozel_value(s[HANDS]) + kozel_value(s[HANDS + 2])
        pair1 = kozel_value(s[HANDS + 1]) + kozel_value(s[HANDS + 3])
        if reason == DOMINO:
            s[WINNER] = last % 2
            s[POINTS + 1 - last % 2] = pair1 if last % 2 == 0 else pair0
        elif pair0 == pair1:
            s[EGGS] = pair0 + pair1
        else:
            loser = 0 if pair0 > pair1 else 1
            s[WINNER] = 1 - loser
            s[POINTS + loser] = pair0 + pair1
        return
    if variant == ALLFIVES:
        if reason == TARGET_REACHED:
            s[WINNER] = last
            return
        mine, theirs = pips(s[HANDS]), pips(s[HANDS + 1])
        if reason == DOMINO:
            s[WINNER] = last
            s[POINTS + last] = (theirs if last == 0 else mine) // 5 * 5
            return
        standing0 = s[SCORES] + s[COUNT]
        standing1 = s[SCORES + 1] + s[COUNT + 1]
        if standing0 != standing1:
            winner = 0 if standing0 > standing1 else 1
        else:
            tiles0, tiles1 = popcount(s[HANDS]), popcount(s[HANDS + 1])
            winner = last if tiles0 == tiles1 else (0 if tiles0 < tiles1 else 1)
        s[WINNER] = winner
        s[POINTS + winner] = theirs - mine if winner == 0 else mine - theirs
        return
    players = s[PLAYERS]
    total = 0
    low, lows, winner = 1 << 30, 0, -1
    for seat in range(players):
        p = pips(s[HANDS + seat])
        total += p
        if p < low:
            low, lows, winner = p, 1, seat
        elif p == low:
            lows += 1
    if reason == DOMINO:
        s[WINNER] = last
        s[POINTS + last] = total
    elif lows == 1:
        s[WINNER] = winner
        s[POINTS + winner] = total - low - (0 if s[OTHERS_ONLY] else low)


@njit(cache=True, inline="always")
def choose(s: np.ndarray, moves: np.ndarray, k: int, policy: int, scratch: np.ndarray,
           rng: np.ndarray) -> int:
    """A move code among the ``k`` legal ones: uniformly at random, or by the heuristic."""
    if k == 1:
        return moves[0]
    if policy == RANDOM:
        return moves[rand_below(rng, k)]
    return heuristic_move(s, moves, k, scratch, rng)


@njit(cache=True)
def heuristic_move(s: np.ndarray, moves: np.ndarray, k: int, scratch: np.ndarray,
                   rng: np.ndarray) -> int:
    """Shed heavy tiles and doubles, take All Fives' count points; ties at random."""
    best, ties, pick = -1, 0, moves[0]
    allfives = s[VARIANT] == ALLFIVES
    seat = s[TURN]
    for i in range(k):
        code = moves[i]
        t = code // 5
        value = 2 * (HIGH[t] + LOW[t]) + (3 if HIGH[t] == LOW[t] else 0)
        if allfives:
            scratch[:] = s
            apply(scratch, code)
            value += 4 * (scratch[COUNT + seat] - s[COUNT + seat])
        if value > best:
            best, ties, pick = value, 1, code
        elif value == best:
            ties += 1
            if rand_below(rng, ties) == 0:
                pick = code
    return pick


@njit(cache=True)
def play_out(s: np.ndarray, policy: int, moves: np.ndarray, scratch: np.ndarray,
             rng: np.ndarray) -> None:
    while not s[OVER]:
        k = legal(s, moves)
        apply(s, choose(s, moves, k, policy, scratch, rng))


@njit(cache=True, inline="always")
def side_points(s: np.ndarray, side: int) -> int:
    """What a side gains in this round: the award, and All Fives' count points."""
    points = s[POINTS + side]
    if s[VARIANT] == ALLFIVES:
        points += s[COUNT + side]
    return points


@njit(cache=True)
def workspace(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A seeded generator, a move list, a state and a scratch state for a batch."""
    rng = np.empty(2, dtype=np.uint64)
    seed_state(seed, rng)
    return (rng, np.empty(MAX_MOVES, dtype=np.int64), np.empty(SIZE, dtype=np.int64),
            np.empty(SIZE, dtype=np.int64))


@njit(cache=True)
def successors(states: np.ndarray, codes: np.ndarray, out: np.ndarray) -> None:
    """``out[i * len(codes) + j]`` gets ``states[i]`` after the move ``codes[j]``."""
    k = codes.shape[0]
    for i in range(states.shape[0]):
        for j in range(k):
            out[i * k + j] = states[i]
            apply(out[i * k + j], codes[j])


@njit(cache=True)
def playouts(states: np.ndarray, repeats: int, policy: int, sides: int, seed: int,
             out: np.ndarray) -> None:
    """Play every state out ``repeats`` times; ``out[b, r, side]`` gets the points."""
    rng, moves, s, scratch = workspace(seed)
    for b in range(states.shape[0]):
        for r in range(repeats):
            s[:] = states[b]
            play_out(s, policy, moves, scratch, rng)
            for side in range(sides):
                out[b, r, side] = side_points(s, side)


@njit(cache=True)
def is_void(s: np.ndarray) -> bool:
    for seat in range(4):
        hand = s[HANDS + seat]
        if popcount(hand & DOUBLES) >= 5:
            return True
        for n in range(7):
            if popcount(hand & SUITS[n]) >= 6:
                return True
    return False


@njit(cache=True)
def deal(s: np.ndarray, template: np.ndarray, hand_size: int, order: np.ndarray,
         rng: np.ndarray) -> None:
    """Shuffle into ``order``, deal it into ``s`` (a copy of the rules' ``template``) and
    play the forced first lead; Kozel deals again until the deal is not void."""
    players = template[PLAYERS]
    while True:
        for i in range(28):  # Fisher-Yates
            j = rand_below(rng, i + 1)
            order[i] = order[j]
            order[j] = i
        s[:] = template
        everyone = np.int64(0)
        for seat in range(players):
            hand = np.int64(0)
            for i in range(seat * hand_size, (seat + 1) * hand_size):
                hand |= np.int64(1) << order[i]
            s[HANDS + seat] = hand
            everyone |= hand
        s[ALL] = everyone
        if s[VARIANT] != KOZEL or not is_void(s):
            break
    if s[VARIANT] == DRAW_GAME or s[VARIANT] == ALLFIVES:
        s[BONE_COUNT] = 28 - players * hand_size
        for i in range(s[BONE_COUNT]):
            s[BONE + i] = order[players * hand_size + i]
    lead_first(s)


@njit(cache=True)
def lead_first(s: np.ndarray) -> None:
    """The forced first lead: Kozel's 1-1, else the strongest tile dealt."""
    lead = 2 if s[VARIANT] == KOZEL else -1
    if lead < 0:
        for i in range(28):
            if s[ALL] >> STRONGEST_FIRST[i] & 1:
                lead = STRONGEST_FIRST[i]
                break
    for seat in range(s[PLAYERS]):
        if s[HANDS + seat] >> lead & 1:
            s[TURN] = seat
    apply(s, lead * 5 + LEAD)


@njit(cache=True)
def random_rounds(template: np.ndarray, hand_size: int, n: int, policy: int,
                  sides: int, seed: int, out: np.ndarray) -> int:
    """Deal and play ``n`` rounds; ``out[i, side]`` gets the points. Returns the moves."""
    rng, moves, s, scratch = workspace(seed)
    order = np.empty(28, dtype=np.int64)
    total = 0
    for i in range(n):
        deal(s, template, hand_size, order, rng)
        while not s[OVER]:
            k = legal(s, moves)
            apply(s, choose(s, moves, k, policy, scratch, rng))
            total += 1
        for side in range(sides):
            out[i, side] = side_points(s, side)
    return total


@njit(cache=True)
def logged_rounds(template: np.ndarray, hand_size: int, n: int, seed: int,
                  orders: np.ndarray, steps: np.ndarray, results: np.ndarray) -> None:
    """Random rounds with everything a replay needs to compare: the deal order, and per
    move the number of legal moves, a hash of their list, and the move chosen."""
    rng, moves, s, scratch = workspace(seed)
    order = np.empty(28, dtype=np.int64)
    for i in range(n):
        deal(s, template, hand_size, order, rng)
        orders[i] = order
        step = 0
        while not s[OVER]:
            k = legal(s, moves)
            code = choose(s, moves, k, RANDOM, scratch, rng)
            steps[i, step, 0] = k
            steps[i, step, 1] = hash_moves(moves, k)
            steps[i, step, 2] = code
            apply(s, code)
            step += 1
        steps[i, step, 0] = -1
        results[i, 0], results[i, 1], results[i, 2] = s[WINNER], s[REASON], s[EGGS]
        for j in range(4):
            results[i, 3 + j] = s[POINTS + j]
            results[i, 7 + j] = s[COUNT + j]


@njit(cache=True)
def hash_moves(moves: np.ndarray, k: int) -> int:
    h = 0
    for i in range(k):
        h = (h * 257 + moves[i] + 1) % 1_000_000_007
    return h
