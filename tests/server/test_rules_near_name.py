"""'rules WORD' with a rule's name mistyped names the near one, as 'new 2 terz' does
(a tryout's 'rules terz' got the bare usage line); a word near none still gets it."""

from __future__ import annotations

from .conftest import Connector


async def test_rules_of_a_mistyped_rule_names_the_near_one(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    await ann.send("rules terz")
    assert await ann.expect("error") == {
        "code": "bad-argument",
        "text": "no rule 'terz': did you mean tertz? ('rules' alone lists them all)",
    }
    await ann.send("rules to-300")  # as near to-301 as to-1001? difflib says which
    told = await ann.expect("error")
    assert told["text"].startswith("no rule 'to-300': did you mean to-301"), told
    await ann.send("rules xyzzy")  # nothing near: the form
    assert (await ann.expect("error"))["text"] == "rules [TABLE|RULE]"
    await ann.send("style human")
    await ann.send("lang ru")
    await ann.send("rules moskow")
    said = await ann.read_until(lambda x: x.startswith("Ошибка ("))
    said += " " + (await ann.read_until(lambda x: True)).strip()
    assert said == (
        "Ошибка (bad-argument): правила «moskow» нет: может быть, moscow? (rules без"
        " слова перечисляет все)"
    )
