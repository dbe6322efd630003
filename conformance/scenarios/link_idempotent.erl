%% Erlang twin of link_idempotent.mr (see that file for what is observed).
-module(link_idempotent).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1, bool/1]).

main() -> morrow_obs:run(fun observer/0).

wait_then_exit(Reason) ->
    receive go -> exit(Reason) end.

checked(What, true) -> say([What, " ok"]).

observer() ->
    Was = process_flag(trap_exit, true),
    say(["trap_exit was ", bool(Was)]),

    W1 = spawn(fun() -> wait_then_exit({failure, "one"}) end),
    checked("link", link(W1)),
    checked("link again", link(W1)),
    _ = morrow_obs:monitor(W1),
    W1 ! go,
    next_event(),
    next_event(),
    drain(),

    W2 = spawn(fun() -> wait_then_exit({failure, "two"}) end),
    checked("link", link(W2)),
    checked("link again", link(W2)),
    checked("unlink once", unlink(W2)),
    _ = morrow_obs:monitor(W2),
    W2 ! go,
    next_event(),
    drain(),

    W3 = spawn_link(fun() -> wait_then_exit({failure, "three"}) end),
    checked("link after spawn_link", link(W3)),
    _ = morrow_obs:monitor(W3),
    W3 ! go,
    next_event(),
    next_event(),
    drain().

next_event() ->
    receive
        {'DOWN', _, process, _, Reason} -> say(["down ", reason(Reason)]);
        {'EXIT', _, Reason} -> say(["exit ", reason(Reason)]);
        go -> say("message")
    end.

drain() ->
    receive
        {'DOWN', _, process, _, Reason} -> say(["unexpected down ", reason(Reason)]);
        {'EXIT', _, Reason} -> say(["unexpected exit ", reason(Reason)]);
        go -> say("unexpected message")
    after 0 -> say("no more events")
    end.
