"""The connection against a fake browser that sends what a real one never should."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import pytest
import trio
import trio_websocket

from cdpseq import ConnectionClosed, ProtocolError
from cdpseq.lowlevel import RawEvent, open_connection
from cdpseq.wire.connection import MAX_MESSAGE_SIZE

Handler = Callable[[trio_websocket.WebSocketConnection, dict[str, object]], Awaitable[bool]]


@asynccontextmanager
async def fake_browser(on_command: Handler) -> AsyncIterator[str]:
    """A websocket server on 127.0.0.1:0. Each command goes to ``on_command``; if it returns
    False, the fake answers it normally with ``{"echo": method}``."""

    async def serve(request: trio_websocket.WebSocketRequest) -> None:
        ws = await request.accept()
        try:
            while True:
                message = json.loads(await ws.get_message())
                if not await on_command(ws, message):
                    await ws.send_message(json.dumps(
                        {"id": message["id"], "result": {"echo": message["method"]}}))
        except trio_websocket.ConnectionClosed:
            pass

    async with trio.open_nursery() as nursery:
        server = await nursery.start(lambda task_status: trio_websocket.serve_websocket(
            serve, "127.0.0.1", 0, ssl_context=None, max_message_size=MAX_MESSAGE_SIZE,
            task_status=task_status))
        yield f"ws://127.0.0.1:{server.port}/devtools/browser/fake"
        nursery.cancel_scope.cancel()


async def _still_works(conn: object) -> None:
    from cdpseq.lowlevel import Connection

    assert isinstance(conn, Connection)
    with trio.fail_after(5):
        assert await conn.execute("Fake.ping") == {"echo": "Fake.ping"}


@pytest.mark.parametrize(
    ("name", "bad_frame"),
    [
        ("invalid json", "{not json"),
        ("not an object", "[1, 2, 3]"),
        ("unknown session", json.dumps(
            {"method": "Page.loadEventFired", "sessionId": "NOPE", "params": {"timestamp": 1}})),
        ("error without id", json.dumps({"error": {"code": -32000, "message": "boom"}})),
        ("unmatched id", json.dumps({"id": 999999, "result": {}})),
    ],
)
async def test_bad_frames_are_skipped_and_counted(name: str, bad_frame: str) -> None:
    async def before_answer(ws: trio_websocket.WebSocketConnection, msg: dict[str, object]
                            ) -> bool:
        if msg["method"] == "Fake.trigger":
            await ws.send_message(bad_frame)
            await ws.send_message(json.dumps({"id": msg["id"], "result": {}}))
            return True
        return False

    async with fake_browser(before_answer) as url, open_connection(url) as conn:
        with trio.fail_after(5):
            await conn.execute("Fake.trigger")
        await _still_works(conn)
        stats = conn.statistics()
        skipped = (stats.invalid_frames + stats.unknown_session_frames
                   + stats.error_frames_without_id + stats.unmatched_responses)
        assert skipped == 1, (name, stats)
        assert stats.pending_commands == 0


async def test_unknown_event_is_delivered_raw() -> None:
    async def emit(ws: trio_websocket.WebSocketConnection, msg: dict[str, object]) -> bool:
        if msg["method"] == "Fake.trigger":
            await ws.send_message(json.dumps(
                {"method": "Brand.newEvent", "params": {"shiny": [1, 2]}}))
        return False

    async with fake_browser(emit) as url, open_connection(url) as conn:
        async with conn.subscribe("Brand.newEvent") as events:
            await conn.execute("Fake.trigger")
            with trio.fail_after(5):
                event = await events.receive()
        assert isinstance(event, RawEvent)
        assert event.method == "Brand.newEvent"
        assert event.session_id is None
        assert event.decode() == {"shiny": [1, 2]}
        await _still_works(conn)


async def test_fifty_megabyte_message_survives() -> None:
    big = "x" * (50 * 1024 * 1024)

    async def huge(ws: trio_websocket.WebSocketConnection, msg: dict[str, object]) -> bool:
        if msg["method"] == "Fake.big":
            await ws.send_message(json.dumps({"id": msg["id"], "result": {"data": big}}))
            return True
        return False

    async with fake_browser(huge) as url, open_connection(url) as conn:
        with trio.fail_after(30):
            result = await conn.execute("Fake.big")
        assert len(result["data"]) == len(big)
        await _still_works(conn)


async def test_error_answer_is_a_protocol_error_with_data() -> None:
    async def refuse(ws: trio_websocket.WebSocketConnection, msg: dict[str, object]) -> bool:
        await ws.send_message(json.dumps({"id": msg["id"], "error": {
            "code": -32602, "message": "Invalid parameters", "data": "url: string expected"}}))
        return True

    async with fake_browser(refuse) as url, open_connection(url) as conn:
        with pytest.raises(ProtocolError) as caught:
            await conn.execute("Page.navigate", {"url": 1})
    assert caught.value.code == -32602
    assert caught.value.method == "Page.navigate"
    assert caught.value.data == "url: string expected"


async def test_peer_closing_the_socket_fails_pending_and_later_commands() -> None:
    async def hang_up(ws: trio_websocket.WebSocketConnection, msg: dict[str, object]) -> bool:
        if msg["method"] == "Fake.hangUp":
            await ws.aclose(code=1001, reason="going away")
            return True
        return True  # never answer anything else

    async with fake_browser(hang_up) as url, open_connection(url) as conn:
        async with trio.open_nursery() as nursery:
            failures: list[BaseException] = []

            async def never_answered() -> None:
                try:
                    await conn.execute("Fake.wait")
                except ConnectionClosed as exc:
                    failures.append(exc)

            nursery.start_soon(never_answered)
            await trio.sleep(0.05)
            with trio.fail_after(5), pytest.raises(ConnectionClosed):
                await conn.execute("Fake.hangUp")
    assert failures and isinstance(failures[0], ConnectionClosed)


async def test_commands_after_peer_close_fail_at_once() -> None:
    async def hang_up(ws: trio_websocket.WebSocketConnection, msg: dict[str, object]) -> bool:
        await ws.aclose(code=1001, reason="going away")
        return True

    async with fake_browser(hang_up) as url, open_connection(url) as conn:
        with trio.fail_after(5), pytest.raises(ConnectionClosed):
            await conn.execute("Fake.first")
        with trio.fail_after(5), pytest.raises(ConnectionClosed) as caught:
            await conn.execute("Fake.second")
        assert "1001" in caught.value.reason
        assert conn.statistics().pending_commands == 0


async def test_slow_subscriber_drops_are_counted_and_others_unaffected() -> None:
    async def burst(ws: trio_websocket.WebSocketConnection, msg: dict[str, object]) -> bool:
        if msg["method"] == "Fake.burst":
            for i in range(20):
                await ws.send_message(json.dumps({"method": "Fake.tick", "params": {"i": i}}))
        return False

    async with fake_browser(burst) as url, open_connection(url) as conn:
        async with conn.subscribe("Fake.tick", buffer=5) as small, \
                conn.subscribe("Fake.tick", buffer=50) as large:
            await conn.execute("Fake.burst")
            await conn.execute("Fake.ping")  # all ticks were routed before this answer
            got_large = [large.receive_nowait().decode()["i"] for _ in range(20)]
            assert got_large == list(range(20))
            assert small.dropped == 15
            assert conn.statistics().events_dropped == 15
            assert [small.receive_nowait().decode()["i"] for _ in range(5)] == [0, 1, 2, 3, 4]


async def test_send_all_is_one_round_trip_in_order_and_raises_the_first_error() -> None:
    from cdpseq.cdp import page, runtime

    seen: list[str] = []

    async def record(ws: trio_websocket.WebSocketConnection, msg: dict[str, object]) -> bool:
        seen.append(str(msg["method"]))
        if msg["method"] == "Page.reload":
            await ws.send_message(json.dumps({"id": msg["id"], "error": {
                "code": -32000, "message": "nope"}}))
            return True
        return False

    async with fake_browser(record) as url, open_connection(url) as conn:
        results = await conn.send_all(page.Enable(), runtime.Enable(), page.BringToFront())
        assert len(results) == 3
        assert seen == ["Page.enable", "Runtime.enable", "Page.bringToFront"]
        with pytest.raises(ProtocolError) as caught:
            await conn.send_all(page.Enable(), page.Reload(), runtime.Enable())
        assert caught.value.method == "Page.reload"
        assert seen[-3:] == ["Page.enable", "Page.reload", "Runtime.enable"]
        assert conn.statistics().pending_commands == 0


async def test_a_batchs_first_answers_are_taken_apart_from_a_later_one() -> None:
    # The act's setup waits for its own commands' answers; the aim sent behind them in the same
    # batch is answered to the step that takes it.
    from cdpseq.cdp import page, runtime

    async def slow_last(ws: trio_websocket.WebSocketConnection, msg: dict[str, object]) -> bool:
        if msg["method"] == "Page.bringToFront":
            await trio.sleep(0.2)
        return False

    async with fake_browser(slow_last) as url, open_connection(url) as conn:
        with trio.fail_after(5):
            batch = await conn.dispatch(page.Enable(), runtime.Enable(), page.BringToFront())
            first = await batch.results(2)
            assert len(first) == 2 and not batch.dones[2].is_set()  # not waited for
            assert await batch.result(2) == page.BringToFront.RESULT()
        assert conn.statistics().pending_commands == 0
