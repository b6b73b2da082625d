"""Damaged copies of a file, for the tests that a reader refuses what it cannot read with its
own error, never another exception."""

from __future__ import annotations

import random


def damaged_copies(data: bytes, seed: int, copies: int = 40, keep: int = 30) -> list[bytes]:
    """``data`` cut in half and to 100 bytes, a zip's signature before random bytes, and
    ``copies`` copies with 1 to 19 bytes overwritten at random past its first ``keep``."""
    rng = random.Random(seed)
    out = [data[:len(data) // 2], data[:100], b"PK\x03\x04" + rng.randbytes(2000)]
    for _ in range(copies):
        chunk = bytearray(data)
        for _ in range(rng.randrange(1, 20)):
            chunk[rng.randrange(keep, len(chunk))] = rng.randrange(256)
        out.append(bytes(chunk))
    return out
