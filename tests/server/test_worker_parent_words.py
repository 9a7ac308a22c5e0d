"""What a worker of 'serve --workers' reads on its stdin, the pipe from its parent
(cluster/worker.py, ``hear_the_parent``): the whole server's drain and stop, each word
heard however the pipe cuts the bytes (docs/scaling.md)."""

from __future__ import annotations

import itertools
import os
import threading

import pytest

from deberc_net.server.cluster import DRAIN_WORD, STOP_WORD, WorkerPlace
from deberc_net.server.cluster.worker import LONGEST_WORD, hear_the_parent, parent_words


def _heard(chunks: list[bytes]) -> list[bytes]:
    """Every word ``parent_words`` tells for ``chunks`` read one after another."""
    heard: list[bytes] = []
    rest = b""
    for chunk in chunks:
        words, rest = parent_words(rest, chunk)
        heard += words
    assert len(rest) <= LONGEST_WORD + 1  # (what is kept stays small)
    return heard


def _cut(said: bytes, at: tuple[int, ...]) -> list[bytes]:
    """``said`` cut at the positions ``at`` (in order; empty pieces too)."""
    ends = [0, *at, len(said)]
    return [said[a:b] for a, b in itertools.pairwise(ends)]


def test_every_word_is_heard_wherever_the_reads_cut_them() -> None:
    # failed before: the watch kept the last 6 bytes and looked at their end, so a
    # drain then a stop in one read set only the stop
    said = DRAIN_WORD + STOP_WORD + DRAIN_WORD
    for cuts in range(3):
        for at in itertools.combinations_with_replacement(range(len(said) + 1), cuts):
            assert _heard(_cut(said, at)) == [DRAIN_WORD, STOP_WORD, DRAIN_WORD], at


def test_no_word_is_made_of_a_longer_line_or_a_line_not_ended() -> None:
    said = b"x" * 40 + DRAIN_WORD + b"undrain\n" + STOP_WORD[:-1]
    for at in range(len(said) + 1):
        heard = _heard(_cut(said, (at,)))
        assert DRAIN_WORD not in heard and STOP_WORD not in heard, at
    assert _heard([b"x" * 10_000, DRAIN_WORD, STOP_WORD]) == [
        b"x" * (LONGEST_WORD + 1) + DRAIN_WORD,  # (the long line: its head only)
        STOP_WORD,
    ]


@pytest.mark.timeout(10)
def test_a_drain_and_a_stop_in_one_write_of_the_pipe_are_both_heard() -> None:
    place = WorkerPlace(0, 2)
    read, write = os.pipe()
    try:
        os.write(write, DRAIN_WORD + STOP_WORD)  # (one write: one read takes both)
        os.close(write)
        write = -1
        watch = threading.Thread(target=hear_the_parent, args=(read, place), daemon=True)
        watch.start()
        watch.join(30)
        assert not watch.is_alive()  # returned at the pipe's end
    finally:
        os.close(read)
        if write >= 0:
            os.close(write)
    assert place.parent_drains.is_set() and place.parent_stops.is_set()


@pytest.mark.timeout(10)
def test_the_pipe_closed_without_a_word_sets_neither() -> None:
    place = WorkerPlace(0, 2)
    read, write = os.pipe()
    os.write(write, b"dra")
    os.close(write)
    try:
        hear_the_parent(read, place)
    finally:
        os.close(read)
    assert not place.parent_drains.is_set() and not place.parent_stops.is_set()
