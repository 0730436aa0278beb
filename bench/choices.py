"""Fit the choice model of ``bones.bots.inference`` to a bot's own play.

    python bench/choices.py [--level hard] [--variant kozel] [--rounds 300] [--jobs 2]
    python bench/choices.py --load choices.pickle

Plays rounds between bots of one level (or loads the choices another bench saved), keeps
every choice among two or more moves from the mover's view (its hand, the open ends,
what it chose), and fits the weights of a conditional logit by Newton's method. Prints
the weights, their standard errors and how much better than chance the model predicts
the choices (on rounds it was not fitted to).
"""

from __future__ import annotations

import argparse
import os
import pickle
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
from rich.progress import Progress

from bones import Round, Rules, bots
from bones.bots.inference import FEATURES, SPINNER_FEATURES, choices, features, options
from bones.tiles import mask_of

Sample = tuple[np.ndarray, int]  # features of each option, the option chosen


def _rounds(level: str, variant: str, players: int, seeds: list[int]) -> list[Sample]:
    rules = Rules.preset(variant, players=players)
    seats = [bots.get(level, seed=seeds[0] * 10 + n) for n in range(players)]
    found: list[Sample] = []
    for seed in seeds:
        rnd = Round.deal(rules, seed=seed)
        while not rnd.is_over:
            rnd.push(seats[rnd.turn or 0].choose(rnd.view(rnd.turn or 0)))
        for seat in range(players):
            found += made_by(rnd, seat)
    return found


def made_by(rnd: Round, seat: int) -> list[Sample]:
    """Every choice among two or more moves ``seat`` made in a finished round, as the
    seat before it saw them."""
    found: list[Sample] = []
    now = mask_of(rnd.hands[seat])
    for choice in choices(rnd.view((seat - 1) % rnd.rules.players)):
        if choice.seat != seat:
            continue
        hand = now | choice.since
        listed = options(hand, choice.ends)
        if len(listed) > 1:
            rows = np.array([features(hand, choice, play) for play in listed])
            found.append((rows, listed.index(choice.move)))
    return found


def fit(samples: list[Sample], steps: int = 30) -> tuple[np.ndarray, np.ndarray]:
    """Maximum-likelihood weights and their standard errors."""
    w = np.zeros(samples[0][0].shape[1])
    hessian = np.eye(len(w))
    for _ in range(steps):
        grad, hessian = np.zeros_like(w), np.zeros((len(w), len(w)))
        for rows, chosen in samples:
            p = np.exp(rows @ w - (rows @ w).max())
            p /= p.sum()
            mean = p @ rows
            grad += rows[chosen] - mean
            hessian += (rows * p[:, None]).T @ rows - np.outer(mean, mean)
        w += np.linalg.solve(hessian + RIDGE * np.eye(len(w)), grad)
    return w, np.sqrt(np.diag(np.linalg.inv(hessian + RIDGE * np.eye(len(w)))))


RIDGE = 1e-6
"""Keeps a feature that never varies (the partner in a 2-player game) at weight 0."""


def log_likelihood(samples: list[Sample], w: np.ndarray) -> float:
    total = 0.0
    for rows, chosen in samples:
        s = rows @ w
        total += s[chosen] - s.max() - np.log(np.exp(s - s.max()).sum())
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="hard")
    parser.add_argument("--variant", default="kozel")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--load", type=Path, default=None,
                        help="fit the choices saved there (bench/openspiel.py --choices)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    if args.load:
        samples = pickle.loads(args.load.read_bytes())
    else:
        samples = _play(args.level, args.variant, args.players, args.rounds, args.jobs)
    half = len(samples) // 2
    w, se = fit(samples[:half])
    chance = log_likelihood(samples[half:], np.zeros_like(w))
    model = log_likelihood(samples[half:], w)
    names = SPINNER_FEATURES if len(w) == len(SPINNER_FEATURES) else FEATURES
    print(f"{len(samples)} choices; weights ({', '.join(names)}):")
    print("  " + ", ".join(f"{x:.3f} ± {e:.3f}" for x, e in zip(w, se, strict=True)))
    print(f"held-out log-likelihood per choice: chance {chance / (len(samples) - half):.3f}, "
          f"model {model / (len(samples) - half):.3f}")
    w_all, _ = fit(samples)
    print("on every choice: (" + ", ".join(f"{x:.2f}" for x in w_all) + ")")


def _play(level: str, variant: str, players: int | None, rounds: int,
          jobs: int) -> list[Sample]:
    players = players or Rules.preset(variant).players
    chunks = [list(range(i, min(i + 10, rounds))) for i in range(0, rounds, 10)]
    samples: list[Sample] = []
    with Progress() as progress, ProcessPoolExecutor(jobs) as pool:
        task = progress.add_task(f"{level} at {variant}", total=rounds)
        futures = [pool.submit(_rounds, level, variant, players, c) for c in chunks]
        for chunk, future in zip(chunks, futures, strict=True):
            samples += future.result()
            progress.advance(task, len(chunk))
    return samples


if __name__ == "__main__":
    main()
