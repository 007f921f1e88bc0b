"""Credentials for ``credentialRef`` fills, and scrubbing them from everything cdpseq outputs.

A fill's ``credentialRef`` names a secret: the mapping given to ``act`` (or to the CLI and the
MCP server with ``--secrets FILE``), else the environment variable ``CDPSEQ_SECRET_<NAME>``.
A value is resolved only when its fill runs and is never logged; ``scrub`` replaces it in every
string of a result. The front doors also scrub every secret they know of from every output.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any, cast

import msgspec

from ..errors import CdpseqError

SECRET_ENV_PREFIX = "CDPSEQ_SECRET_"
MASK = "••••"


class Secrets:
    """Where ``credentialRef`` names are looked up: ``given`` first, then the environment."""

    def __init__(self, given: Mapping[str, str] | None = None, *,
                 environ: Mapping[str, str] | None = None) -> None:
        self.given = dict(given or {})
        self._environ = environ

    @property
    def environ(self) -> Mapping[str, str]:
        """Where ``CDPSEQ_SECRET_<NAME>`` variables are looked up (the process's, unless given)."""
        return os.environ if self._environ is None else self._environ

    def lookup(self, name: str) -> str | None:
        """The value of secret ``name``: given, else from the environment, else None."""
        if name in self.given:
            return self.given[name]
        return self.environ.get(SECRET_ENV_PREFIX + name.upper())

    def known_values(self, *, min_length: int = 1) -> list[str]:
        """Every value these secrets can resolve to, longest first (scrub order)."""
        values = {*self.given.values(),
                  *(v for k, v in self.environ.items() if k.startswith(SECRET_ENV_PREFIX))}
        return sorted((v for v in values if len(v) >= min_length), key=len, reverse=True)


def scrub(data: Any, values: Iterable[str]) -> Any:
    """Plain JSON-like ``data`` with every one of ``values`` masked in every string."""
    ordered = sorted({v for v in values if v}, key=len, reverse=True)
    if not ordered:
        return data

    def clean(item: Any) -> Any:
        if isinstance(item, str):
            for value in ordered:
                item = item.replace(value, MASK)
            return item
        if isinstance(item, list):
            return [clean(x) for x in item]
        if isinstance(item, dict):
            return {k: clean(v) for k, v in item.items()}
        return item

    return clean(data)


class SecretsError(CdpseqError):
    """A ``--secrets`` file that cannot be used (the message never holds a value)."""


def load_secrets(path: str | None) -> dict[str, str]:
    """``{name: value}`` from a JSON object file; names as credentialRef spells them."""
    if path is None:
        return {}
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError as exc:
        raise SecretsError(f"cannot read --secrets {path}: {exc.strerror}") from None
    try:
        raw = msgspec.json.decode(data)
    except msgspec.DecodeError:
        raise SecretsError(f"--secrets {path}: not valid JSON") from None
    if not isinstance(raw, dict):
        raise SecretsError(f"--secrets {path}: expected a JSON object {{name: value}}")
    bad = [str(name) for name, value in raw.items() if not isinstance(value, str)]
    if bad:
        raise SecretsError(f"--secrets {path}: the value of {', '.join(sorted(bad))} is not a "
                           "string")
    return cast(dict[str, str], raw)
