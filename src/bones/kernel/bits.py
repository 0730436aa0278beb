"""Bit tricks and a small random generator for the compiled kernel.

``highest`` and ``popcount`` are single machine instructions (LLVM's ctlz and ctpop);
``rand_below`` draws from xoroshiro128+, a generator that costs a few nanoseconds where
NumPy's Mersenne Twister costs over ten, which matters at millions of draws a second.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit
from numba.core import types
from numba.core.typing.templates import Signature
from numba.extending import intrinsic

U64 = np.uint64


@intrinsic
def _ctlz(typingctx: object, x: types.Integer) -> tuple[Signature, object]:
    def codegen(context: object, builder: ir.IRBuilder, signature: Signature,
                args: list[ir.Value]) -> ir.Value:
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return x(x), codegen


@intrinsic
def _ctpop(typingctx: object, x: types.Integer) -> tuple[Signature, object]:
    def codegen(context: object, builder: ir.IRBuilder, signature: Signature,
                args: list[ir.Value]) -> ir.Value:
        return builder.ctpop(args[0])

    return x(x), codegen


@njit(cache=True, inline="always")
def highest(mask: int) -> int:
    """The index of the highest set bit of a non-zero mask."""
    return 63 - _ctlz(np.int64(mask))  # type: ignore[call-arg]  # the intrinsic's typing


@njit(cache=True, inline="always")
def popcount(mask: int) -> int:
    return _ctpop(np.int64(mask))  # type: ignore[call-arg]


@njit(cache=True)
def seed_state(value: int, state: np.ndarray) -> None:
    """Fill a 2-word xoroshiro128+ state from a seed with splitmix64."""
    x = U64(value)
    for i in range(2):
        x += U64(0x9E3779B97F4A7C15)
        z = x
        z = (z ^ (z >> U64(30))) * U64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> U64(27))) * U64(0x94D049BB133111EB)
        state[i] = z ^ (z >> U64(31))


@njit(cache=True, inline="always")
def rand_below(state: np.ndarray, k: int) -> int:
    """A uniform integer in [0, k) (k below 2**32)."""
    s0, s1 = state[0], state[1]
    result = s0 + s1
    s1 ^= s0
    state[0] = ((s0 << U64(24)) | (s0 >> U64(40))) ^ s1 ^ (s1 << U64(16))
    state[1] = (s1 << U64(37)) | (s1 >> U64(27))
    return int(((result >> U64(32)) * U64(k)) >> U64(32))
