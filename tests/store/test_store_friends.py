"""Friends 好友 and a player's own choices in the store, on SQLite and PostgreSQL
(migration ``0013``): a request, then accepted by asking back; removing and declining; the
cap; a guest bound to a name keeps his id and coins; a rename under the look-alike rules; a
password change that ends the other sessions; the avatar and the privacy setting."""

from __future__ import annotations

from datetime import timedelta

import pytest
from store_kit import NOW

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.store import Store, friends


def test_a_request_accepted_by_asking_back_then_removed(store: Store) -> None:
    ann = store.register("ann", "h", grant=10, now=NOW)
    bob = store.register("bob", "h", grant=10, now=NOW)
    assert store.ask_friend(ann, bob, now=NOW) == friends.ASKED
    assert store.ask_friend(ann, bob, now=NOW) == friends.ASKED  # again: no error
    assert store.friend_state(ann, bob) == friends.ASKED
    assert store.friend_state(bob, ann) == friends.ASKING
    assert [(f.card.name, f.state) for f in store.friend_list(bob)] == [("ann", "asking")]
    assert store.ask_friend(bob, ann, now=NOW) == friends.FRIENDS
    assert [(f.card.name, f.state) for f in store.friend_list(ann)] == [("bob", "friends")]
    with pytest.raises(IllegalActionError, match="already_friends"):
        store.ask_friend(ann, bob, now=NOW)
    with pytest.raises(IllegalActionError, match="not_yourself"):
        store.ask_friend(ann, ann, now=NOW)
    store.remove_friend(bob, ann)
    assert store.friend_list(ann) == [] and store.friend_state(ann, bob) is None
    with pytest.raises(IllegalActionError, match="not_friends"):
        store.remove_friend(ann, bob)


def test_the_cap_on_friends_and_requests(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(friends, "MAX_FRIENDS", 2)
    names = ("ann", "bob", "cy", "dee")
    ann, bob, cy, dee = (store.register(n, "h", grant=0, now=NOW) for n in names)
    store.ask_friend(ann, bob, now=NOW)
    store.ask_friend(cy, ann, now=NOW)
    with pytest.raises(IllegalActionError, match="too_many_friends"):
        store.ask_friend(ann, dee, now=NOW)
    with pytest.raises(IllegalActionError, match="too_many_friends"):
        store.ask_friend(dee, ann, now=NOW)
    assert store.ask_friend(ann, cy, now=NOW) == friends.FRIENDS  # accepting adds no row


def test_a_bound_guest_keeps_his_id_and_coins(store: Store) -> None:
    guest = store.register("游客0a0b0c0d", "", grant=500, now=NOW)
    store.register("alice", "h", grant=10, now=NOW)
    assert store.card(guest).guest
    with pytest.raises(IllegalActionError, match="name_taken"):
        store.bind(guest, "ALICE", "hash", keep=None)  # alice in another case
    assert store.card(guest).guest  # nothing changed
    store.bind(guest, "carol", "hash", keep=None)
    card = store.card(guest)
    assert (card.name, card.guest, store.balance(guest)) == ("carol", False, 500)
    user = store.user_by_name("carol")
    assert user is not None and user.id == guest and user.password_hash == "hash"
    with pytest.raises(IllegalActionError, match="not_guest"):
        store.bind(guest, "carol2", "hash", keep=None)
    store.rename(guest, "Carol")  # his own name in another case
    assert store.card_by_name("Carol") is not None and store.card_by_name("carol") is None
    with pytest.raises(IllegalActionError, match="name_taken"):
        store.rename(guest, "Alice")


def test_a_new_password_ends_the_other_sessions(store: Store) -> None:
    ann = store.register("ann", "old", grant=0, now=NOW)
    later = NOW + timedelta(days=1)
    for token in ("t1", "t2", "t3"):
        store.create_session(ann, token, later)
    assert store.set_password(ann, "new", keep="t2") == 2
    assert store.password_hash(ann) == "new"
    assert [store.session_user(t, NOW) for t in ("t1", "t2", "t3")] == [None, ann, None]


def test_avatar_and_privacy(store: Store) -> None:
    ann = store.register("ann", "h", grant=0, now=NOW)
    assert (store.card(ann).avatar, store.card(ann).show_where) == (None, True)
    store.set_looks(ann, avatar=3, show_where=False)
    assert (store.card(ann).avatar, store.card(ann).show_where) == (3, False)
    store.set_looks(ann, avatar=-1, show_where=None)
    assert (store.card(ann).avatar, store.card(ann).show_where) == (None, False)
    with pytest.raises(InvalidActionError, match="bad_avatar"):
        store.set_looks(ann, avatar=friends.AVATARS, show_where=None)
