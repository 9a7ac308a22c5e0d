"""``/api/health``: whether this server takes new games, for a load balancer's or a
supervisor's check (docs/web.md, "Health"). A draining server (SIGUSR1, docs/protocol.md
§11.4a) still serves its running matches but starts none: it answers 503, so a load
balancer sends new players elsewhere while it finishes; so does one stopping."""

from __future__ import annotations

import enum

import attrs

from ..lobby import Lobby


class Serving(enum.StrEnum):
    SERVING = "serving"  # new games start here
    DRAINING = "draining"  # its running matches play out; no new one starts
    STOPPING = "stopping"  # it shuts down


@attrs.frozen
class Health:
    status: Serving
    players: int  # logged in (under --workers: at this worker, and the others' it knows)
    # matches being played at the tables anyone may see (under --workers: at every
    # worker of its parent): a private one counted would tell any stranger it started
    playing: int

    @property
    def http_status(self) -> int:
        return 200 if self.status is Serving.SERVING else 503


def health_of(lobby: Lobby) -> Health:
    if not lobby.accepting:
        status = Serving.STOPPING
    elif lobby.drain.begun:
        status = Serving.DRAINING
    else:
        status = Serving.SERVING
    # the whole server's, as players is: worker 0, whose web face it is, had told its
    # own tables only (0 while the other worker's matches played on)
    return Health(status, lobby.players_online(), lobby.drain.running(listed=True))
