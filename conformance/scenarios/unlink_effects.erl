%% Erlang twin of unlink_effects.mr (see that file for what is observed).
-module(unlink_effects).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1, bool/1, checked/2, next_event/0, drain/0]).

main() -> morrow_obs:run(fun observer/0).

worker(Reason) -> fun() -> morrow_obs:wait_then_exit({failure, Reason}) end.

observer() ->
    morrow_obs:show_trap_exit(true),

    W1 = spawn_link(worker("gone")),
    _ = morrow_obs:monitor(W1),
    checked("unlink before death", unlink(W1)),
    W1 ! go,
    next_event(),
    drain(),

    W2 = spawn_link(worker("late")),
    R2 = morrow_obs:monitor(W2),
    W2 ! go,
    morrow_obs:down("", R2),
    checked("unlink after queued exit", unlink(W2)),
    receive
        {'EXIT', Who, Reason} -> say(["exit ", reason(Reason), " from worker ", bool(Who =:= W2)])
    after 0 -> say("no exit queued")
    end,
    drain(),

    W3 = spawn(worker("relinked")),
    checked("link", link(W3)),
    checked("unlink", unlink(W3)),
    checked("link again", link(W3)),
    morrow_obs:release(W3, 2),

    checked("unlink never linked", unlink(W3)),
    checked("unlink self", unlink(self())),
    drain().
