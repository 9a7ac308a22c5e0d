"""A table's inbox (server/inbox.py): messages in order, a waiting task woken by a put,
nothing taken once closed, a cancelled wait leaves it usable."""

from __future__ import annotations

import pytest
import trio
import trio.testing

from deberc_net.server.inbox import Inbox


def test_an_inbox_is_made_without_trio_and_keeps_the_order_of_puts() -> None:
    inbox: Inbox[int] = Inbox()  # outside any trio run: a table is built that way
    assert not inbox and inbox.take() is None
    assert inbox.put(1) and inbox.put(2)
    assert len(inbox) == 2
    assert (inbox.take(), inbox.take(), inbox.take()) == (1, 2, None)


async def test_a_put_wakes_the_task_waiting_and_queued_messages_come_without_waiting() -> None:
    inbox: Inbox[str] = Inbox()
    got: list[str | None] = []

    async def reader() -> None:
        for _ in range(3):
            got.append(await inbox.get())

    async with trio.open_nursery() as nursery:
        nursery.start_soon(reader)
        await trio.testing.wait_all_tasks_blocked()
        assert got == []  # waits: nothing queued
        inbox.put("a")
        await trio.testing.wait_all_tasks_blocked()
        assert got == ["a"]
        inbox.put("b")
        inbox.put("c")
    assert got == ["a", "b", "c"]


async def test_a_closed_inbox_refuses_puts_and_keeps_what_was_queued() -> None:
    inbox: Inbox[int] = Inbox()
    inbox.put(1)
    inbox.close()
    assert not inbox.put(2)
    assert inbox.take() == 1
    assert inbox.take() is None


async def test_a_cancelled_wait_leaves_the_inbox_usable() -> None:
    inbox: Inbox[int] = Inbox()
    with trio.move_on_after(0.01) as waited:
        await inbox.get()
    assert waited.cancelled_caught
    inbox.put(7)  # no task to wake: the cancelled one is forgotten
    assert await inbox.get() == 7


async def test_two_tasks_may_not_wait_on_one_inbox() -> None:
    inbox: Inbox[int] = Inbox()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(inbox.get)
        await trio.testing.wait_all_tasks_blocked()
        with pytest.raises(RuntimeError, match="already waits"):
            await inbox.get()
        inbox.put(1)


async def test_a_held_inbox_queues_without_waking_and_its_release_wakes_for_what_came() -> None:
    inbox: Inbox[int] = Inbox()
    got: list[int | None] = []

    async def reader() -> None:
        got.append(await inbox.get())

    async with trio.open_nursery() as nursery:
        nursery.start_soon(reader)
        await trio.testing.wait_all_tasks_blocked()
        inbox.hold()  # another task handles what comes (Table.handle_here)
        inbox.put(1)
        await trio.testing.wait_all_tasks_blocked()
        assert got == [] and inbox.waiting
        assert inbox.take() == 1  # handled there
        inbox.release()  # nothing left: the waiting task sleeps on
        await trio.testing.wait_all_tasks_blocked()
        assert got == [] and inbox.waiting
        inbox.wake()  # woken with nothing: it looks around
    assert got == [None]


async def test_a_task_waiting_for_the_release_wakes_at_the_release() -> None:
    inbox: Inbox[int] = Inbox()
    inbox.hold()
    released = False

    async def waiter() -> None:
        nonlocal released
        await inbox.until_released()
        released = True

    async with trio.open_nursery() as nursery:
        nursery.start_soon(waiter)
        await trio.testing.wait_all_tasks_blocked()
        assert not released
        inbox.release()
    assert released


async def test_idle_only_while_a_task_waits_with_nothing_queued_and_nobody_holding() -> None:
    inbox: Inbox[str] = Inbox()
    assert not inbox.idle()  # nobody waits
    async with trio.open_nursery() as nursery:
        nursery.start_soon(inbox.get)
        await trio.testing.wait_all_tasks_blocked()
        assert inbox.idle()
        inbox.hold()
        assert not inbox.idle()  # another task handles what comes
        inbox.put("a")
        assert not inbox.idle()
        inbox.release()  # wakes the waiting task, which takes "a"
    assert not inbox.idle() and inbox.take() is None
