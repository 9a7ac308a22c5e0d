"""Bots and a client library that speak the deberc-net protocol over TCP like anyone."""
