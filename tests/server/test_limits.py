"""The rate limits and the byte-bounded outbox on their own, fed with chosen times."""

from __future__ import annotations

import math

from deberc_net.server.limits import AddressBuckets, Bucket, Recent, SharedBucket, WindowCounter
from deberc_net.server.session import Outbox
from deberc_net.server.watch_news import WatchNews


def test_a_bucket_allows_its_burst_then_its_rate() -> None:
    bucket = Bucket(rate=2.0, burst=3.0)
    assert [bucket.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert not bucket.take(0.4)  # 0.8 of a token back: not yet one
    assert bucket.take(0.5) and not bucket.take(0.5)
    assert [bucket.take(100.0) for _ in range(4)] == [True, True, True, False]  # capped


def test_a_bucket_says_how_long_until_its_next_token() -> None:
    bucket = Bucket(rate=2.0, burst=2.0)
    assert bucket.wait(0.0) == 0.0
    assert bucket.take(0.0) and bucket.take(0.0) and not bucket.take(0.0)
    assert bucket.wait(0.0) == 0.5 and bucket.wait(0.25) == 0.25 and bucket.wait(0.5) == 0.0
    assert bucket.take(0.5)  # as said
    assert Bucket(rate=0.0, burst=1.0).wait(0.0) == 0.0


def test_an_addresss_bucket_outlives_its_connections_until_it_is_full_again() -> None:
    buckets = AddressBuckets(rate=1.0, burst=2.0, kept=1)
    spent = buckets.of("a", 0.0, connected=set())
    assert spent.take(0.0) and spent.take(0.0)  # then its last connection closed
    buckets.of("b", 0.5, connected=set())
    held = buckets.of("c", 0.5, connected=set())  # more than 'kept': a look through
    assert buckets.of("a", 0.5, connected=set()) is spent  # not full: no new allowance
    buckets.of("d", 5.0, connected={"c"})  # (looked through again at twice as many)
    buckets.of("e", 5.0, connected={"c"})  # refilled by now: dropped but c's
    assert buckets.of("a", 5.0, connected=set()) is not spent
    assert buckets.of("c", 5.0, connected={"c"}) is held


def test_a_buckets_ready_spends_nothing_and_a_shared_one_needs_both() -> None:
    shared = Bucket(rate=1.0, burst=1.0)
    bucket = SharedBucket(rate=1.0, burst=2.0, shared=shared)
    assert bucket.ready(0.0) and bucket.ready(0.0)  # asked twice: nothing spent
    assert bucket.take(0.0)
    assert not bucket.ready(0.5)  # its own has 1.5, the address's 0.5
    assert bucket.ready(1.0) and bucket.take(1.0) and not bucket.ready(1.0)


def test_a_tables_watch_news_tells_a_name_once_a_window_and_its_going_only_with_it() -> None:
    news = WatchNews(60.0, Bucket(rate=0.0, burst=3.0))
    assert news.coming("eve", 0.0) and news.going("eve")
    assert not news.coming("eve", 1.0) and not news.going("eve")  # again: no news
    assert not news.going("eve")  # a going never told coming is not told
    assert news.coming("eve", 61.0) and news.going("eve")  # the window has passed
    assert news.coming("ann", 62.0)  # the table's third and last coming ...
    assert not news.coming("bob", 62.0) and not news.going("bob")  # ... none for bob
    assert news.going("ann")
    news.coming("cat", 63.0)  # (none left: not told)
    news = WatchNews(60.0, Bucket(rate=0.0, burst=3.0))
    assert news.coming("eve", 0.0)
    news.seated("eve")  # her seat is told instead: no going after it
    assert not news.going("eve")


def test_a_tables_watch_news_forgets_names_older_than_its_window() -> None:
    news = WatchNews(10.0, Bucket(rate=1000.0, burst=1000.0))
    for i in range(1000):  # a name every 0.1 s, each coming and going
        now = i / 10
        assert news.coming(f"n{i}", now) and news.going(f"n{i}")
    assert len(news) < 64 + 2 * 100  # the last window's names and some, not 1,000


def test_a_window_counter_forgets_what_is_older_than_its_window() -> None:
    counter = WindowCounter(window=10.0)
    for now in (0.0, 1.0, 2.0):
        counter.add("a", now)
    counter.add("b", 5.0)
    assert counter.count("a", 9.0) == 3 and counter.count("b", 9.0) == 1
    assert counter.count("a", 10.5) == 2  # the one at 0.0 has left the window
    counter.prune(20.0)
    assert counter.count("a", 20.0) == 0 and len(counter) == 0  # nothing kept


def test_a_window_counter_says_how_long_until_a_key_is_under_its_limit() -> None:
    counter = WindowCounter(window=60)
    for at in (0, 10, 20):
        counter.add("a", at)
    assert counter.wait("a", 25, limit=4) == 0  # 3 of 4: in now
    assert counter.wait("a", 25, limit=3) == 35  # the first (at 0) leaves at 60
    assert counter.wait("a", 25, limit=2) == 45  # the second too, at 70
    assert counter.wait_pending("a", 25, limit=4, pending=1) == 35  # a check not answered
    assert counter.wait_pending("a", 25, limit=3, pending=1) == 45  # (if it fails: exact)
    assert counter.wait_pending("a", 25, limit=3, pending=0) == 35
    # past the limit only with checks not answered: no wait known (they may be right)
    assert counter.wait_pending("b", 25, limit=1, pending=1) is None
    assert counter.wait_pending("a", 25, limit=2, pending=2) is None
    assert counter.wait("b", 25, limit=1) == 0
    assert counter.wait("a", 60, limit=3) == 0  # the first gone: 2 left


def test_a_window_counter_forgets_keys_never_counted_again() -> None:
    counter = WindowCounter(window=10.0, kept=2)
    counter.add("a", 0.0)
    counter.add("b", 1.0)
    counter.add("c", 12.0)  # more than 'kept': a look through drops a and b
    assert len(counter) == 1 and counter.count("c", 12.0) == 1


def test_an_outbox_is_bounded_in_bytes_and_dropped_whole() -> None:
    outbox = Outbox(limit=100)
    assert outbox.put(b"x" * 60) and outbox.put(b"y" * 40)
    assert outbox.queued_bytes == 100
    assert outbox.take() == b"x" * 60 + b"y" * 40 and outbox.queued_bytes == 0
    assert outbox.put(b"z" * 90)
    assert not outbox.put(b"w" * 11)  # past the limit: the backlog goes, not waits
    assert outbox.closed and outbox.queued_bytes == 0 and not outbox.chunks
    assert not outbox.put(b"late")


def test_recent_keys_are_forgotten_after_their_window() -> None:
    recent = Recent(window=10.0, kept=2)
    recent.add("a", 0.0)
    recent.add("b", 1.0)
    recent.add("a", 5.0)  # seen again: its window starts again
    assert recent.seen("a", 14.0) and not recent.seen("b", 11.0)
    recent.add("c", 12.0)  # more than 'look_at': the forgotten ones go
    assert len(recent) == 2 and not recent.seen("x", 12.0)
    recent.prune(30.0)
    assert len(recent) == 0


def test_a_shared_buckets_wait_is_the_longer_and_a_bucket_that_never_fills_has_none() -> None:
    shared = Bucket(rate=0.1, burst=1.0)
    bucket = SharedBucket(rate=1.0, burst=1.0, shared=shared)
    assert bucket.take(0.0) and not bucket.take(0.0)
    assert bucket.wait(0.0) == 10.0  # its own is back in 1 s, the address's in 10
    assert not bucket.ready(9.0) and bucket.ready(10.0)
    assert Bucket(rate=0.0, burst=0.0).wait(0.0) == math.inf  # (told with no wait_ms=)
    assert Bucket(rate=1.0, burst=0.5).wait(5.0) == math.inf  # never a whole token
