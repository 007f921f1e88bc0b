"""act: the top of the act path, from a request to its result.

``act`` is the Python door: it validates what it is given once (``validate.parse_request``;
an invalid request answers ``INVALID_REQUEST``, nothing ran), then runs it as ``run_validated``
does. ``run_validated`` is the engine's entry for a request validated at a front door (the CLI,
the MCP server, a pool, ``act_many``): the checks before step 0 (``engine/preflight``), the
tab's turn (``engine/turn``: one act or read at a time per tab, in this process), the steps
(``engine/sequence``, each through ``engine/attempt``), and the credentials it resolved
scrubbed from the result. Credential values are resolved only when their fill runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from ..browser import Tab
from ..errors import InvalidRequest
from .preflight import refusal
from .request import ActRequest, Step
from .result import ActResult, invalid_result
from .secrets import Secrets, scrub
from .sequence import StepSequence
from .turn import Turn
from .validate import parse_request


async def act(tab: Tab,
              request: ActRequest | Sequence[Step | Mapping[str, Any]] | Mapping[str, Any]
              | str | bytes,
              *, secrets: Mapping[str, str] | None = None) -> ActResult:
    """Run ``request`` (an ActRequest, its JSON, a dict, or a bare list of steps — Structs
    such as ``Click(target="ref_1")`` or dicts) on ``tab``.

    Never raises for a bad request or a misbehaving page: an invalid request answers a result
    whose ``failed.code`` is ``INVALID_REQUEST`` (nothing ran), and every failure of a step is
    in the result. ``secrets`` maps ``credentialRef`` names to values (else
    ``$CDPSEQ_SECRET_<NAME>``)."""
    try:
        # An ActRequest built in Python is validated too: msgspec checks types when it
        # decodes, not when a Struct is constructed.
        parsed = parse_request(request)
    except InvalidRequest as exc:
        return invalid_result(exc)
    return await run_validated(tab, parsed, secrets=secrets)


async def run_validated(tab: Tab, request: ActRequest, *,
                        secrets: Mapping[str, str] | None = None,
                        environ: Mapping[str, str] | None = None) -> ActResult:
    """Run ``request``, which ``validate.parse_request`` made, on ``tab``: what ``act`` does
    after validating, for the doors that validated at their own front. ``environ`` is where
    ``$CDPSEQ_SECRET_<NAME>`` is looked up (default: this process's environment; the CLI
    daemon's calls each pass their own)."""
    known = Secrets(secrets, environ=environ)
    refused = refusal(tab, request, known)
    if refused is not None:
        return refused
    used_secrets: list[str] = []

    def resolve_secret(name: str) -> str:
        value = known.lookup(name)
        assert value is not None, "checked before the run"
        used_secrets.append(value)
        return value

    async with tab.extension(Turn).lock:
        result = await StepSequence(tab, request, resolve_secret).run()
    if not any(used_secrets):
        return result
    return msgspec.convert(scrub(msgspec.to_builtins(result), used_secrets), ActResult)
