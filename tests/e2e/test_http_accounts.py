"""Accounts over HTTP: sign-up, sign-in by password or device code, sessions in the ``ds_session``
cookie, sign-out (here and everywhere), deletion, names unique by their skeleton, throttled
sign-ins, the guard against other origins, and the seats that follow an account (``my-seat``,
"my games" by the cookie, a player key's games moved into the account). A real Redis and the
real app; each "device" is its own cookie, sent by hand (the test client's jar is emptied after
every answer, so no request carries a session it did not name)."""

from __future__ import annotations

import hashlib
import logging
from dataclasses import replace

import pytest
from prometheus_client.exposition import generate_latest

from service import bootstrap
from service.store.accounts import AccountStore
from service.store.redis_log import text
from tests.e2e.conftest import auth, close_within, create_deal, expect_problem

pytestmark = pytest.mark.redis
PASSWORD = "correct horse battery"


def cookie(session: str | None) -> dict[str, str]:
    return {"Cookie": f"ds_session={session}"} if session else {}


async def call(http, method: str, path: str, session: str | None = None, **kwargs):
    headers = {**cookie(session), **kwargs.pop("headers", {})}
    resp = await http.request(method, path, headers=headers, **kwargs)
    await resp.read()
    http.session.cookie_jar.clear()
    return resp


def session_of(resp) -> str:
    morsel = resp.cookies["ds_session"]
    assert morsel.value
    return morsel.value


async def sign_up(http, name: str, password: str = PASSWORD, **kwargs) -> str:
    resp = await call(http, "POST", "/accounts", json={"name": name, "password": password}, **kwargs)
    assert resp.status == 201, await resp.text()
    assert await resp.json() == {"name": name}
    return session_of(resp)


async def sign_in(http, **body) -> str:
    resp = await call(http, "POST", "/sessions", json=body)
    assert resp.status == 200, await resp.text()
    return session_of(resp)


async def account_keys(store) -> list[str]:
    return sorted([text(k) async for k in store.redis.scan_iter(match=f"{store.prefix}:{{account*")])


async def test_sign_up_sign_in_and_sign_out(http, store):
    resp = await call(http, "POST", "/accounts", json={"name": "Mei Ling", "password": PASSWORD})
    assert resp.status == 201
    set_cookie = resp.headers["Set-Cookie"]
    for part in ("ds_session=", "HttpOnly", "SameSite=Lax", "Path=/"):
        assert part in set_cookie, set_cookie
    assert "Secure" not in set_cookie  # plain http, no trusted proxy
    laptop = session_of(resp)
    me = await call(http, "GET", "/accounts/me", laptop)
    assert me.status == 200 and await me.json() == {"name": "Mei Ling", "ratings": {}}
    await expect_problem(await call(http, "GET", "/accounts/me"), 401, "DS-34")
    await expect_problem(await call(http, "GET", "/accounts/me", "not-a-session"), 401, "DS-34")

    phone = await sign_in(http, name="MEI LING", password=PASSWORD)  # any case signs in
    assert phone != laptop
    wrong_password = await call(http, "POST", "/sessions", json={"name": "Mei Ling", "password": "x" * 12})
    unknown_name = await call(http, "POST", "/sessions", json={"name": "Nobody", "password": PASSWORD})
    first = await expect_problem(wrong_password, 401, "DS-35")
    assert first == await expect_problem(unknown_name, 401, "DS-35")  # the same answer, word for word
    assert "Set-Cookie" not in wrong_password.headers

    out = await call(http, "DELETE", "/sessions/current", phone)
    assert out.status == 204 and out.headers["Set-Cookie"].startswith("ds_session=")
    await expect_problem(await call(http, "GET", "/accounts/me", phone), 401, "DS-34")
    await expect_problem(await call(http, "DELETE", "/sessions/current", phone), 401, "DS-34")
    assert (await call(http, "GET", "/accounts/me", laptop)).status == 200  # the other session lives

    tablet = await sign_in(http, name="Mei Ling", password=PASSWORD)
    assert (await call(http, "DELETE", "/sessions", tablet)).status == 204  # everywhere
    for session in (laptop, tablet):
        await expect_problem(await call(http, "GET", "/accounts/me", session), 401, "DS-34")
    await expect_problem(await call(http, "DELETE", "/sessions"), 401, "DS-34")


async def test_names_are_unique_by_their_skeleton_and_bad_input_writes_nothing(http, store):
    await sign_up(http, "Alice")
    for lookalike in ("alice", "ALICE", "\u0410lice", "Ａｌｉｃｅ", "Al1ce", "A l i c e"):
        resp = await call(http, "POST", "/accounts", json={"name": lookalike, "password": PASSWORD})
        await expect_problem(resp, 409, "DS-36")
    held = await account_keys(store)
    bad = [
        ({"name": "", "password": PASSWORD}, 400, "TB-1.3"),
        ({"name": "x" * 25, "password": PASSWORD}, 400, "TB-1.3"),
        ({"name": "<b>", "password": PASSWORD}, 400, "TB-1.3"),
        ({"name": " Bob", "password": PASSWORD}, 400, "TB-1.3"),
        ({"name": "Bob", "password": "short"}, 422, "DS-37"),
        ({"name": "Bob", "password": "p" * 257}, 422, "DS-37"),
        ({"name": "Bob", "password": 12345678}, 422, "DS-37"),
        ({"name": "Bob"}, 422, "DS-37"),
        ({"name": "Bob", "password": PASSWORD, "admin": True}, 400, "DS-5"),
        ([], 400, "DS-5"),
    ]
    for body, status, rule in bad:
        await expect_problem(await call(http, "POST", "/accounts", json=body), status, rule)
    await expect_problem(await call(http, "POST", "/accounts", data=b"{"), 400, "DS-5")
    assert await account_keys(store) == held  # nothing written
    await expect_problem(await call(http, "POST", "/sessions", json={}), 400, "DS-5")
    both = {"name": "Alice", "password": PASSWORD, "device_code": "ABCDE-FGHJK"}
    await expect_problem(await call(http, "POST", "/sessions", json=both), 400, "DS-5")


async def test_the_password_is_kept_only_as_an_argon2id_hash(http, store):
    session = await sign_up(http, "Hashed")
    code = await (await call(http, "POST", "/accounts/me/device-codes", session)).json()
    blob = bytearray()
    async for key in store.redis.scan_iter(match=f"{store.prefix}:*"):
        blob += key
        kind = text(await store.redis.type(key))
        if kind == "hash":
            for field, value in (await store.redis.hgetall(key)).items():
                blob += field + value
        elif kind == "string":
            blob += await store.redis.get(key)
        elif kind == "set":
            blob += b"".join(await store.redis.smembers(key))
    for secret in (PASSWORD, session, code["device_code"], code["device_code"].replace("-", "")):
        assert secret.encode() not in blob
    (account_id,) = (await AccountStore(store.redis, store.prefix).export()).keys()
    hashed = text(await store.redis.hget(f"{store.prefix}:{{account:{account_id}}}", "password"))
    assert hashed.startswith("$argon2id$")


async def test_a_device_code_signs_in_once_within_ten_minutes(http, store):
    laptop = await sign_up(http, "Traveller")
    resp = await call(http, "POST", "/accounts/me/device-codes", laptop)
    assert resp.status == 201
    made = await resp.json()
    assert 0 < made["expires_in"] <= 600
    code = made["device_code"]
    ttls = [
        await store.redis.ttl(k) async for k in store.redis.scan_iter(match=f"{store.prefix}:{{device-code:*")
    ]
    assert len(ttls) == 1 and 0 < ttls[0] <= 600
    phone = await sign_in(http, device_code=code.lower().replace("-", " "))  # as typed on a phone
    assert await (await call(http, "GET", "/accounts/me", phone)).json() == {
        "name": "Traveller",
        "ratings": {},
    }
    await expect_problem(await call(http, "POST", "/sessions", json={"device_code": code}), 401, "DS-35")
    for wrong in ("AAAAA-AAAAA", "not a code", 7, "x" * 100):
        await expect_problem(await call(http, "POST", "/sessions", json={"device_code": wrong}), 401, "DS-35")
    await expect_problem(await call(http, "POST", "/accounts/me/device-codes"), 401, "DS-34")


async def _open_deal(http, session: str | None = None, **extra) -> dict:
    body = {
        "game": "paohuzi",
        "seats": ["human", "open", "bot:greedy"],
        "clock": {"move_s": 600, "claim_s": 300, "bank_s": 600},
        **extra,
    }
    resp = await call(http, "POST", "/deals", session, json=body)
    assert resp.status == 201, await resp.text()
    return await resp.json()


async def test_seats_follow_the_account_to_another_device(http, store):
    creator = await sign_up(http, "Creator")
    guest = await sign_up(http, "Guest")
    deal = await _open_deal(http, creator)
    deal_id = deal["deal_id"]
    join = {"invite": deal["invites"]["1"], "name": "Guest"}
    joined = await call(http, "POST", f"/deals/{deal_id}/join", guest, json=join)
    assert joined.status == 201, await joined.text()
    guest_token = (await joined.json())["token"]

    # the creator's phone: signed in by a device code, it asks for its seat of the deal
    code = (await (await call(http, "POST", "/accounts/me/device-codes", creator)).json())["device_code"]
    phone = await sign_in(http, device_code=code)
    resp = await call(http, "POST", f"/deals/{deal_id}/my-seat", phone)
    assert resp.status == 200, await resp.text()
    handed = await resp.json()
    assert handed["seat"] == 0 and handed["token"] != deal["tokens"]["0"]
    again = await (await call(http, "POST", f"/deals/{deal_id}/my-seat", phone)).json()
    assert again["seat"] == 0 and again["token"] != handed["token"]  # each device its own token
    for token in (deal["tokens"]["0"], handed["token"], again["token"]):  # none revoked the other
        view = await call(http, "GET", f"/deals/{deal_id}/view", headers=auth(token))
        assert view.status == 200 and (await view.json())["seat"] == 0
    # a seat keeps the newest four tokens handed out this way: a fifth ends the oldest
    later = [await (await call(http, "POST", f"/deals/{deal_id}/my-seat", creator)).json() for _ in range(3)]
    gone = await call(http, "GET", f"/deals/{deal_id}/view", headers=auth(handed["token"]))
    await expect_problem(gone, 401, "DS-8")
    for token in (deal["tokens"]["0"], again["token"], *[h["token"] for h in later]):
        assert (await call(http, "GET", f"/deals/{deal_id}/view", headers=auth(token))).status == 200
    handed = later[-1]
    start = {"command_id": "phone-start", "command": {"type": "StartDeal", "client_seed": "phone"}}
    played = await call(http, "POST", f"/deals/{deal_id}/commands", json=start, headers=auth(handed["token"]))
    assert played.status == 200, await played.text()

    guest_seat = await (await call(http, "POST", f"/deals/{deal_id}/my-seat", guest)).json()
    assert guest_seat["seat"] == 1 and guest_seat["token"] != guest_token

    # "my games" by the cookie, on any device of the account
    for session, seat in ((creator, 0), (phone, 0), (guest, 1)):
        resp = await call(http, "GET", "/players/me/deals", session)
        assert resp.status == 200, await resp.text()
        rows = (await resp.json())["deals"]
        assert [(r["deal_id"], r["seat"]) for r in rows] == [(deal_id, seat)]

    stranger = await sign_up(http, "Stranger")
    await expect_problem(await call(http, "POST", f"/deals/{deal_id}/my-seat", stranger), 404, "DS-40")
    await expect_problem(await call(http, "POST", f"/deals/{deal_id}/my-seat"), 401, "DS-34")
    await expect_problem(await call(http, "POST", "/deals/0000000000000000/my-seat", creator), 404, "DS-7")
    empty = await call(http, "GET", "/players/me/deals", stranger)
    assert (await empty.json())["deals"] == []
    await expect_problem(await call(http, "GET", "/players/me/deals"), 401, "DS-27")
    await expect_problem(await call(http, "GET", "/players/me/deals", "gone"), 401, "DS-27")


async def test_a_player_keys_games_move_into_the_account(http, store):
    key = (await (await call(http, "POST", "/players/keys")).json())["player_key"]
    deal = await create_deal(
        http, {"game": "mcr", "seats": ["human"] + ["bot:greedy"] * 3, "player_key": key}
    )
    http.session.cookie_jar.clear()
    await expect_problem(
        await call(http, "POST", "/accounts", json={"name": "Keyed", "password": PASSWORD},
                   headers={"X-Player-Key": "aaaaaaaaaaaaaaaa"}),
        400, "DS-26",
    )  # fmt: skip
    assert await account_keys(store) == []
    session = await sign_up(http, "Keyed", headers={"X-Player-Key": key})
    rows = (await (await call(http, "GET", "/players/me/deals", session)).json())["deals"]
    assert [r["deal_id"] for r in rows] == [deal["deal_id"]]
    token = (await (await call(http, "POST", f"/deals/{deal['deal_id']}/my-seat", session)).json())["token"]
    assert (await call(http, "GET", f"/deals/{deal['deal_id']}/view", headers=auth(token))).status == 200

    # a sign-in with a key moves that key's games too
    other_key = (await (await call(http, "POST", "/players/keys")).json())["player_key"]
    second = await create_deal(
        http, {"game": "mcr", "seats": ["human"] + ["bot:greedy"] * 3, "player_key": other_key}
    )
    http.session.cookie_jar.clear()
    resp = await call(
        http,
        "POST",
        "/sessions",
        json={"name": "Keyed", "password": PASSWORD},
        headers={"X-Player-Key": other_key},
    )
    assert resp.status == 200
    rows = (await (await call(http, "GET", "/players/me/deals", session_of(resp))).json())["deals"]
    assert {r["deal_id"] for r in rows} == {deal["deal_id"], second["deal_id"]}


async def test_sign_ins_are_throttled_per_account_and_per_address(http, store):
    await sign_up(http, "Target")
    for _ in range(10):
        resp = await call(http, "POST", "/sessions", json={"name": "target", "password": "wrong-password"})
        await expect_problem(resp, 401, "DS-35")
    resp = await call(http, "POST", "/sessions", json={"name": "TARGET", "password": PASSWORD})
    await expect_problem(resp, 429, "DS-38")
    assert int(resp.headers["Retry-After"]) >= 1
    # the address: 30 sign-ins a minute, the sign-up and the ones above counted
    for _ in range(30 - 12):
        await expect_problem(
            await call(http, "POST", "/sessions", json={"device_code": "AAAAA-AAAAA"}), 401, "DS-35"
        )
    resp = await call(http, "POST", "/sessions", json={"device_code": "AAAAA-AAAAA"})
    await expect_problem(resp, 429, "DS-38")
    assert int(resp.headers["Retry-After"]) >= 1


async def test_a_signed_in_request_from_another_origin_is_refused(http, store):
    session = await sign_up(http, "Guarded")
    evil = {"Origin": "http://evil.example"}
    for method, path, body in (
        ("POST", "/accounts/me/device-codes", None),
        ("DELETE", "/sessions/current", None),
        ("DELETE", "/sessions", None),
        ("DELETE", "/accounts/me", None),
        ("POST", "/deals", {"game": "paohuzi", "seats": ["human", "bot:greedy", "bot:greedy"]}),
    ):
        resp = await call(http, method, path, session, json=body, headers=evil)
        await expect_problem(resp, 403, "DS-39")
    assert (await call(http, "GET", "/accounts/me", session)).status == 200  # nothing was done
    rows = (await (await call(http, "GET", "/players/me/deals", session)).json())["deals"]
    assert rows == [] and await store.redis.zcard(store.keys.index) == 0
    own = {"Origin": f"http://{http.server.host}:{http.server.port}"}
    assert (await call(http, "POST", "/accounts/me/device-codes", session, headers=own)).status == 201
    # another port of the same host passes (a proxy's Host may drop the port); null does not
    other_port = {"Origin": f"http://{http.server.host}:1"}
    assert (await call(http, "POST", "/accounts/me/device-codes", session, headers=other_port)).status == 201
    for origin in ("null", "http://localhost:1", "https://127.0.0.1.evil.example", "http://[::1"):
        resp = await call(http, "POST", "/accounts/me/device-codes", session, headers={"Origin": origin})
        await expect_problem(resp, 403, "DS-39")
    anonymous = await call(
        http,
        "POST",
        "/deals",
        json={"game": "paohuzi", "seats": ["human", "bot:greedy", "bot:greedy"]},
        headers=evil,
    )
    assert anonymous.status == 201  # no cookie: no account acts, the API stays open to other pages


async def test_deleting_an_account_frees_its_name_and_ends_its_sessions(http, store):
    laptop = await sign_up(http, "Leaving")
    phone = await sign_in(http, name="Leaving", password=PASSWORD)
    deal = await _open_deal(http, laptop)
    assert (await call(http, "DELETE", "/accounts/me", laptop)).status == 204
    for session in (laptop, phone):
        await expect_problem(await call(http, "GET", "/accounts/me", session), 401, "DS-34")
    await expect_problem(
        await call(http, "POST", "/sessions", json={"name": "Leaving", "password": PASSWORD}), 401, "DS-35"
    )
    assert await account_keys(store) == []
    assert [k async for k in store.redis.scan_iter(match=f"{store.prefix}:{{session:*")] == []
    assert [k async for k in store.redis.scan_iter(match=f"{store.prefix}:{{player:account-*")] == []
    # the deal plays on with the token it handed out; the name is anyone's again
    view = await call(http, "GET", f"/deals/{deal['deal_id']}/view", headers=auth(deal["tokens"]["0"]))
    assert view.status == 200
    await sign_up(http, "Leaving", "another password")


async def test_the_cookie_is_secure_behind_a_trusted_proxy_over_https(aiohttp_client, store):
    settings = replace(
        bootstrap.TEST_SETTINGS, prefix=store.prefix, dev=True, trusted_proxies=("127.0.0.1/32",)
    )
    client = await aiohttp_client(bootstrap.application(store.redis, settings))
    try:
        https = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}
        resp = await call(
            client, "POST", "/accounts", json={"name": "Proxied", "password": PASSWORD}, headers=https
        )
        assert resp.status == 201 and "Secure" in resp.headers["Set-Cookie"]
        resp = await call(client, "POST", "/sessions", json={"name": "Proxied", "password": PASSWORD})
        assert resp.status == 200 and "Secure" not in resp.headers["Set-Cookie"]
    finally:
        await close_within(client, 60)


async def test_no_secret_reaches_a_log_line(http, store, caplog):
    caplog.set_level(logging.DEBUG)
    session = await sign_up(http, "Quiet")
    code = (await (await call(http, "POST", "/accounts/me/device-codes", session)).json())["device_code"]
    phone = await sign_in(http, device_code=code)
    deal = await _open_deal(http, session)
    token = (await (await call(http, "POST", f"/deals/{deal['deal_id']}/my-seat", phone)).json())["token"]
    await call(http, "POST", "/sessions", json={"name": "Quiet", "password": "a wrong password"})
    await call(http, "DELETE", "/sessions/current", phone)
    text_logged = "\n".join(r.getMessage() for r in caplog.records)
    assert caplog.records  # the access log and the app's lines were captured
    metrics = generate_latest(http.app[bootstrap.METRICS].registry).decode()
    assert "/accounts/me/device-codes" in metrics  # the account routes are counted, by route
    for secret in (PASSWORD, "a wrong password", session, phone, code, code.replace("-", ""), token):
        assert secret not in text_logged
        assert secret not in metrics


async def test_a_match_made_signed_in_is_the_accounts(http, store):
    session = await sign_up(http, "Matcher")
    body = {"game": "paohuzi", "seats": ["human", "bot:greedy", "bot:greedy"], "length": 2}
    resp = await call(http, "POST", "/matches", session, json=body)
    assert resp.status == 201, await resp.text()
    made = await resp.json()
    listed = await (await call(http, "GET", "/players/me/deals", session)).json()
    assert [m["match_id"] for m in listed["matches"]] == [made["match_id"]]
    assert [(d["deal_id"], d["seat"]) for d in listed["deals"]] == [(made["deal_id"], 0)]
    mine = await (await call(http, "POST", f"/deals/{made['deal_id']}/my-seat", session)).json()
    assert mine["seat"] == 0


async def test_a_session_in_use_is_renewed_for_its_whole_lifetime(http, store):
    """A person who keeps coming back stays signed in: each GET /accounts/me (the web client
    asks it on every page) gives the session its 30 days again, in Redis and in the cookie."""
    from service.app.accounts import SESSION_S

    session = await sign_up(http, "Comes Back")
    digest = hashlib.sha256(session.encode()).hexdigest()
    key = f"{store.prefix}:{{session:{digest}}}"
    await store.redis.expire(key, 3600)  # as if signed in 29 days and 23 hours ago
    me = await call(http, "GET", "/accounts/me", session)
    assert me.status == 200
    assert await store.redis.ttl(key) > SESSION_S - 600
    renewed = me.headers["Set-Cookie"]
    assert f"ds_session={session}" in renewed and f"Max-Age={SESSION_S}" in renewed and "HttpOnly" in renewed
    # a session that ended is not brought back by a renewal
    assert (await call(http, "DELETE", "/sessions/current", session)).status == 204
    gone = await call(http, "GET", "/accounts/me", session)
    assert gone.status == 401 and not await store.redis.exists(key)
