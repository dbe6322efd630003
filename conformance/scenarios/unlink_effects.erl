%% Erlang twin of unlink_effects.mr (see that file for what is observed).
-module(unlink_effects).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1, bool/1]).

main() -> morrow_obs:run(fun observer/0).

wait_then_exit(Reason) ->
    receive go -> exit(Reason) end.

checked(What, true) -> say([What, " ok"]).

observer() ->
    Was = process_flag(trap_exit, true),
    say(["trap_exit was ", bool(Was)]),

    W1 = spawn_link(fun() -> wait_then_exit({failure, "gone"}) end),
    _ = morrow_obs:monitor(W1),
    checked("unlink before death", unlink(W1)),
    W1 ! go,
    next_event(),
    drain(),

    W2 = spawn_link(fun() -> wait_then_exit({failure, "late"}) end),
    R2 = morrow_obs:monitor(W2),
    W2 ! go,
    receive {'DOWN', R2, process, _, Reason2} -> say(["down ", reason(Reason2)]) end,
    checked("unlink after queued exit", unlink(W2)),
    receive
        {'EXIT', Who, Reason} -> say(["exit ", reason(Reason), " from worker ", bool(Who =:= W2)])
    after 0 -> say("no exit queued")
    end,
    drain(),

    W3 = spawn(fun() -> wait_then_exit({failure, "relinked"}) end),
    checked("link", link(W3)),
    checked("unlink", unlink(W3)),
    checked("link again", link(W3)),
    _ = morrow_obs:monitor(W3),
    W3 ! go,
    next_event(),
    next_event(),
    drain(),

    checked("unlink never linked", unlink(W3)),
    checked("unlink self", unlink(self())),
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
