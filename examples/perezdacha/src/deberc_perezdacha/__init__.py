"""House rule ``perezdacha``: the player may call a redeal before the first card.

A third-party rule with its own table call. After the order, until the first card is
played, the seat that ordered may say ``perezdacha`` (people may also type
``пересдача`` or ``redeal``): the deal ends at once, nobody writes anything (outcome
``redeal``) and the next deal is dealt as after any other.

The hooks it uses: ``deberc_call_aliases`` (the spoken words), ``deberc_extra_calls``
(when the call is legal) and ``deberc_apply_extra_call`` (what it does). A hook sees the
deal as a ``PluginDeal``: the typed surface a plugin may use.
"""

from __future__ import annotations

from deberc_net.plugins import Call, Phase, PluginDeal, RuleInfo, hookimpl

NAME = "perezdacha"  # the rule, its entry point, and its call
REDEAL = Call(NAME)
OUTCOME = "redeal"


@hookimpl
def deberc_rule_info() -> RuleInfo:
    return RuleInfo(
        name=NAME,
        kind="option",
        summary=(
            "Before the first card the player who ordered may call 'perezdacha' (a redeal): "
            "the deal ends, nobody writes anything, and the next deal is dealt."
        ),
        summary_ru=(
            "До первой карты заказавший может сказать «пересдача»: раздача кончается, "
            "никто ничего не записывает, сдают следующую."
        ),  # 'rules' at a 'lang ru' connection
        needs_bidding=True,  # a variant without bidding (tertz) refuses it
        outcomes_ru={OUTCOME: "пересдача по просьбе"},  # 'lang ru': its deal's end
    )


@hookimpl
def deberc_call_aliases() -> dict[str, tuple[str, ...]]:
    return {NAME: ("пересдача", "redeal")}


def _may_redeal(deal: PluginDeal, seat: int) -> bool:
    return (
        deal.phase == Phase.PLAY
        and seat == deal.player
        and deal.pending is None
        and not deal.tricks
        and not deal.trick.cards
    )


@hookimpl
def deberc_extra_calls(deal: PluginDeal, seat: int) -> list[Call]:
    return [REDEAL] if _may_redeal(deal, seat) else []


@hookimpl
def deberc_apply_extra_call(deal: PluginDeal, seat: int, call: Call) -> bool | None:
    if call != REDEAL:
        return None  # another plugin's call
    nothing = [0] * len(deal.sides)
    deal.end_deal(OUTCOME, nothing, nothing)
    return True
